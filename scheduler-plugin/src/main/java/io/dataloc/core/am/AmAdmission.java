package io.dataloc.core.am;

import io.dataloc.core.jobs.JobOrdering;
import io.dataloc.core.jobs.JobView;
import java.util.Objects;

/**
 * Which waiting ApplicationMaster is admitted next, when the AM limit lets one more in.
 *
 * <p><b>Problem.</b> A job holds its AM container for its whole life, and the AM limit ({@code
 * maximum-am-resource-percent}) caps how many run at once; the others wait for one to end. The
 * stock schedulers admit in submission order, so a one-map job that arrives behind large jobs waits
 * for a large job's whole life before its AM starts. Under a heavy-tailed mix of job sizes that
 * wait is most of the mean job time (measured on the network workload: 93-99 s of a 184-202 s
 * mean, README "Jobs on a network that costs").
 *
 * <p><b>Rule.</b> Among the jobs waiting for an AM, the one admitted next is the first in this
 * order: higher application priority first (as YARN's schedulers rank applications); then the
 * configured {@link JobOrdering} at time {@code now}; then the lower index (submission order). With
 * the ordering {@code bid} and one user this is the highest ratio {@code wait / size}, a job's wait
 * since submission over its size (its maps, known from its split file at submission): Song et
 * al.'s job-level bid, which is the highest-response-ratio-next rule without its {@code +1}.
 *
 * <p><b>Properties</b> ({@code AmAdmissionTest}, against an oracle comparing the ratios as
 * fractions): with {@code fifo} it is submission order within a priority; with {@code bid}, at equal
 * sizes the longest waiting goes first, at equal waits the smallest, and a job of size {@code s}
 * that has waited {@code w} is admitted before every job of size {@code s'} that has waited less
 * than {@code w·s'/s} — so it is passed only by jobs younger in proportion to their size, and since
 * every wait grows while sizes stay, no job waits for ever behind a finite stream of others.
 *
 * <p><b>Inputs that must not starve a job</b> ({@link #currentShare}, {@link #withKnownSizes}). A
 * user's usage is its <em>current</em> share — the ApplicationMasters it runs now — not its
 * lifetime work: a lifetime total never decays, so a user with {@code 10^6} map-seconds behind one
 * with 10 would wait {@code 10^5} times as long, for ever in a busy cluster. And an application
 * whose size is not known (no plan: Spark, Tez, a failed read, a recovered application) counts as
 * the median known size among those waiting, not the largest: counted as the largest, it waited
 * behind every small MapReduce job.
 */
public final class AmAdmission {

  /** A job waiting for its ApplicationMaster: {@code arrival} and {@code now} in one unit of time. */
  public static final class Waiting implements JobView {
    private final int index;
    private final String user;
    private final long arrival;
    private final long size;
    private final int priority;

    public Waiting(int index, String user, long arrival, long size, int priority) {
      this.index = index;
      this.user = user;
      this.arrival = arrival;
      this.size = size;
      this.priority = priority;
    }

    public int index() {
      return index;
    }

    public String user() {
      return user;
    }

    public long arrival() {
      return arrival;
    }

    public long size() {
      return size;
    }

    public int priority() {
      return priority;
    }

    @Override
    public int running() {
      return 0;
    }

    @Override
    public int pending() {
      return (int) Math.min(Integer.MAX_VALUE, size);
    }

    @Override
    public long estimatedWork() {
      return Math.max(1, size);
    }

    @Override
    public boolean equals(Object o) {
      if (o == this) {
        return true;
      }
      if (!(o instanceof Waiting)) {
        return false;
      }
      Waiting that = (Waiting) o;
      return index == that.index
          && Objects.equals(user, that.user)
          && arrival == that.arrival
          && size == that.size
          && priority == that.priority;
    }

    @Override
    public int hashCode() {
      return Objects.hash(index, user, arrival, size, priority);
    }

    @Override
    public String toString() {
      return "Waiting[index=" + index
          + ", user=" + user
          + ", arrival=" + arrival
          + ", size=" + size
          + ", priority=" + priority + "]";
    }
  }

  private AmAdmission() {}

  /** Negative if {@code a} is admitted before {@code b} at {@code now}. */
  public static int compare(JobView a, JobView b, JobOrdering ordering, long now, JobOrdering.UserUsage usage) {
    if (a.priority() != b.priority()) {
      return Integer.compare(b.priority(), a.priority());
    }
    int c = ordering.compare(a, b, now, usage);
    return c != 0 ? c : Integer.compare(a.index(), b.index());
  }

  /**
   * A user's usage for {@code bid}: one more than the ApplicationMasters it runs now
   * ({@code runningAms}, by user), so a user's history does not count against it, and among users
   * who wait the one running the fewest goes first at equal waits and sizes.
   */
  public static JobOrdering.UserUsage currentShare(java.util.Map<String, Integer> runningAms) {
    return user -> 1L + runningAms.getOrDefault(user, 0);
  }

  /**
   * The waiting jobs with every unknown size ({@code size <= 0}) replaced by the median of the known
   * ones (the lower median; 1 if none is known), in the same order. {@code O(n log n)}.
   */
  public static java.util.List<Waiting> withKnownSizes(java.util.List<Waiting> waiting) {
    long[] known = waiting.stream().mapToLong(Waiting::size).filter(x -> x > 0).sorted().toArray();
    long median = known.length == 0 ? 1 : known[(known.length - 1) / 2];
    java.util.List<Waiting> out = new java.util.ArrayList<>(waiting.size());
    for (Waiting w : waiting) {
      out.add(w.size() > 0 ? w : new Waiting(w.index(), w.user(), w.arrival(), median, w.priority()));
    }
    return out;
  }

  /** The job admitted next among {@code waiting}, or null if none waits. */
  public static <W extends JobView> W next(Iterable<W> waiting, JobOrdering ordering, long now,
      JobOrdering.UserUsage usage) {
    W best = null;
    for (W w : waiting) {
      if (best == null || compare(w, best, ordering, now, usage) < 0) {
        best = w;
      }
    }
    return best;
  }
}
