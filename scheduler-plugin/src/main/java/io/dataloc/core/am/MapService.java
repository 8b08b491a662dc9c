package io.dataloc.core.am;

import io.dataloc.core.engine.Decision;
import io.dataloc.core.engine.DecisionEngine;
import io.dataloc.core.engine.Rehoming;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * Serving one free slot with the engine's maps — the loop the ResourceManager adapter and the
 * simulator share, so what the simulator measures is the plan mode that ships.
 *
 * <p>One try: the engine proposes a task ({@link DecisionEngine#propose}, changing nothing); the
 * caller's facts may refuse it (the application asks for no maps now, the node is blacklisted, the
 * map does not fit), a refusal that says something about the host being released by its name; for
 * a job whose MapReduce AM is replayed, the plan's declines are asked of its {@link PlanGuard}
 * (non-local first, then the plan's shape, with the engine's re-homing proposal,
 * {@link DecisionEngine#proposeReplacement}); then the caller allocates the container, the engine
 * commits the proposal ({@link DecisionEngine#commit}) and what the AM will really run in it
 * ({@link AmReplay#take}, {@link DecisionEngine#replaceStarted}). Nothing is taken back: a proposal
 * not carried out was never made. A job that cannot use the slot is excluded and the engine asked
 * again: at most as many tries as there are jobs (and {@code maxTries}), so the work per free slot
 * is bounded. A proposal of the starvation guard is never declined: its job has waited enough.
 */
public final class MapService {
  /** What the service needs to know of a job whose AM it replays. */
  public interface Replayed {
    AmReplay am();

    PlanGuard guard();

    /** The job's maps run or running on {@code host}. */
    int mapsOn(String host);
  }

  /**
   * Why the caller cannot carry out a proposal; each names what the engine does about the task.
   * Whatever the refusal, the job sits out the rest of the slot: a job asked again after a refusal
   * could be proposed the same task again at once (a task routed back to a queue this host serves).
   */
  public enum Refusal {
    /** The application asks for no maps now: the task stays where it is. */
    NOT_ASKING(false),
    /** The node is blacklisted for the application: the task is routed anywhere but this node. */
    BLACKLISTED(true),
    /** The job's maps are larger than the node's room: the task stays (smaller maps may fit). */
    TOO_LARGE(false),
    /** The application's asks do not allow this node: the task is routed elsewhere. */
    ASKS_FORBID(true);

    /** Released with {@link DecisionEngine#refuse} (else the task stays where the proposal found it). */
    final boolean refuseHost;

    Refusal(boolean refuseHost) {
      this.refuseHost = refuseHost;
    }
  }

  /** What the caller knows that the engine does not (the adapter: YARN's asks, nodes and containers). */
  public interface Facts {
    /** The job's replay and guard, or null if its AM is not replayed (not planned, not MapReduce). */
    Replayed replayed(long jobId);

    /** Why the proposal cannot be carried out now (checked before the plan's declines), or null. */
    Refusal before(Decision d);

    /** Whether the asks allow the decided node (checked after the declines, just before the container). */
    boolean allowed(Decision d);

    /** Allocates the container for the proposal; false if it could not (the slot is then given up). */
    boolean allocate(Decision d);

    /** A refusal of {@code d} was released (the adapter reconciles the job's asks). */
    default void released(Decision d, Refusal r) {}

    /** A decision was declined by the plan's guard ({@code moved}: the job's tasks re-routed from this host). */
    default void declined(Decision d, PlanGuard.Verdict v, int moved) {}

    /** A step of the loop ended (the adapter measures its lock holds by step). */
    default void mark(String step) {}
  }

  private MapService() {}

  /**
   * Serves one free slot on {@code host} (named {@code hostName}); the decision carried
   * out, as the AM will really run it, or null if no job could use the slot.
   */
  public static Decision serve(DecisionEngine engine, int host, String hostName, Facts facts,
      int maxTries) {
    engine.beginSlot();
    try {
      return tries(engine, host, hostName, facts, maxTries);
    } finally {
      engine.endSlot();
    }
  }

  private static Decision tries(DecisionEngine engine, int host, String hostName, Facts facts, int maxTries) {
    Set<Long> excluded = new HashSet<>();
    int tries = Math.min(maxTries, engine.activeJobs() + 1);
    for (int i = 0; i < tries; i++) {
      Decision d = engine.propose(host, excluded);
      facts.mark("map: engine decides");
      if (d == null) {
        return null;
      }
      Refusal r = facts.before(d);
      if (r != null) {
        release(engine, d, r, host, excluded, facts);
        continue;
      }
      Replayed job = facts.replayed(d.jobId());
      Admit admit = job == null || d.starving() ? Admit.TAKE_AS_DECIDED : declines(engine, job, d, hostName, facts::mark);
      if (admit.verdict().declines()) {
        excluded.add(d.jobId());
        facts.declined(d, admit.verdict(), admit.moved());
        continue;
      }
      if (!facts.allowed(d)) {
        release(engine, d, Refusal.ASKS_FORBID, host, excluded, facts);
        continue;
      }
      if (!facts.allocate(d)) {
        return null;
      }
      d = carryOut(engine, job, d, admit);
      facts.mark("map: container");
      return d;
    }
    return null;
  }

  /**
   * What the plan's declines say of proposal {@code d} for a job whose AM is replayed: take it, or
   * decline (non-local first, then the plan's shape); with the engine's re-homing proposal for
   * what the AM will run instead ({@link #carryOut} uses it). On a non-local decline the job's tasks
   * queued for this host go where they are local ({@code moved} of them). For a front end that
   * chose the job itself, the same two rules as {@link #serve}'s.
   */
  public static Admit declines(DecisionEngine engine, Replayed job, Decision d, String hostName,
      java.util.function.Consumer<String> mark) {
    int moved = declineNonLocal(engine, job, d, hostName);
    mark.accept("map: decline non-local");
    if (moved >= 0) {
      return new Admit(PlanGuard.Verdict.DECLINE_NON_LOCAL, moved, null);
    }
    // What the AM will run here instead, if the plan meant another task: proposed, not yet done.
    int amLocal = job.am().peekLocal(d.host());
    Rehoming proposal = amLocal < 0 ? null : engine.proposeReplacement(d, engine.task(d.jobId(), amLocal));
    boolean shape = proposal != null && declinePlanShape(engine, job, d, hostName, proposal);
    mark.accept("map: decline plan-breaking");
    return shape ? new Admit(PlanGuard.Verdict.DECLINE_PLAN_SHAPE, 0, null)
        : new Admit(PlanGuard.Verdict.TAKE, 0, proposal);
  }

  /**
   * The container for {@code d} was allocated: the engine commits the decision, and for a replayed
   * job what the AM really runs in it ({@link AmReplay#take}, {@link DecisionEngine#replaceStarted}),
   * its run of declines on the host ended. Returns the decision as it really is.
   */
  public static Decision carryOut(DecisionEngine engine, Replayed job, Decision d, Admit admit) {
    d = engine.commit(d);
    if (job == null) {
      return d;
    }
    int host = d.host();
    job.guard().taken(engine.state().hostName(host));
    return engine.replaceStarted(d, engine.task(d.jobId(), job.am().take(host, engine.state().rackOf(host))),
        admit.proposal());
  }

  /** The declines' answer: the verdict, the tasks a non-local decline moved, the re-homing proposal (or null). */
  public static final class Admit {
    private final PlanGuard.Verdict verdict;
    private final int moved;
    private final Rehoming proposal;

    public Admit(PlanGuard.Verdict verdict, int moved, Rehoming proposal) {
      this.verdict = verdict;
      this.moved = moved;
      this.proposal = proposal;
    }

    public PlanGuard.Verdict verdict() {
      return verdict;
    }

    public int moved() {
      return moved;
    }

    public Rehoming proposal() {
      return proposal;
    }

    /** A proposal no decline applies to (the job's AM is not replayed, or it starves). */
    public static final Admit TAKE_AS_DECIDED = new Admit(PlanGuard.Verdict.TAKE, 0, null);

    @Override
    public boolean equals(Object o) {
      if (o == this) {
        return true;
      }
      if (!(o instanceof Admit)) {
        return false;
      }
      Admit that = (Admit) o;
      return Objects.equals(verdict, that.verdict)
          && moved == that.moved
          && Objects.equals(proposal, that.proposal);
    }

    @Override
    public int hashCode() {
      return Objects.hash(verdict, moved, proposal);
    }

    @Override
    public String toString() {
      return "Admit[verdict=" + verdict
          + ", moved=" + moved
          + ", proposal=" + proposal + "]";
    }
  }

  private static void release(DecisionEngine engine, Decision d, Refusal r, int host, Set<Long> excluded,
      Facts facts) {
    if (r.refuseHost) {
      engine.refuse(d);
    }
    excluded.add(d.jobId());
    facts.released(d, r);
  }

  /**
   * {@link PlanGuard#nonLocal}; on a decline the job's tasks queued for this host go where they are
   * local. How many moved, or -1 if not declined.
   */
  private static int declineNonLocal(DecisionEngine engine, Replayed job, Decision d, String hostName) {
    int host = d.host();
    PlanGuard.Verdict v = job.guard().nonLocal(hostName, job.am().peekKind(host, engine.state().rackOf(host)),
        () -> job.am().localElsewhere(host, h -> h < engine.state().hostCount() && engine.state().alive(h)));
    if (!v.declines()) {
      return -1;
    }
    return engine.releaseQueued(d.jobId(), d.host());
  }

  /**
   * {@link PlanGuard#planShape}: this host's share of the job if it takes the container is its maps
   * run or running, the container, and its queued tasks with the proposed one counted among them
   * once (it stays queued: a container the AM fills with another task leaves it to be re-homed).
   */
  private static boolean declinePlanShape(DecisionEngine engine, Replayed job, Decision d, String hostName,
      Rehoming proposal) {
    PlanGuard.Verdict v = job.guard().planShape(hostName, proposal.keepsLocality(),
        () -> job.mapsOn(hostName) + 1 + engine.queuedOn(d.jobId(), d.host(), d.task()) + 1,
        engine.state().slots(d.host()));
    return v.declines();
  }
}
