package io.dataloc.core.am;

/**
 * Where an ApplicationMaster runs: away from the data the engine's maps are waiting for.
 *
 * <p><b>Problem.</b> An AM holds its container for its job's whole life. On a host that holds the
 * blocks the live jobs read, that container is taken from data-local maps: with 4-GB
 * NodeManagers, MapReduce's 1.5-GB AM and 1-GB maps, one AM takes two of the host's four map
 * slots. With popular data on a few hosts those hosts are the cluster's bottleneck, and the stock
 * schedulers give an AM the first node that heartbeats with room — as likely a hot host as a cold
 * one.
 *
 * <p><b>Rule.</b> Let the demand {@code d(h)} of host {@code h} be the number of live maps
 * (queued or running) of the engine's jobs with a replica on {@code h}. An AM offered room on
 * host {@code h} takes it iff
 *
 * <ol>
 *   <li>{@code d(h) <= least}, where {@code least} is the least demand among the hosts that have
 *       room for the AM (the caller's recent view; {@code h} is one of them, so with equal demand
 *       everywhere, or no maps at all, every host qualifies), or
 *   <li>the AM has already been declined for {@code maxWaitMillis} or longer: a host of least
 *       demand may have filled meanwhile, so the wait is bounded and the AM then takes any room.
 * </ol>
 *
 * <p><b>Properties</b> (checked by {@code AmSitingTest}): with {@code maxWaitMillis = 0} the rule is
 * first fit, as the stock schedulers; an AM is declined only by a host strictly more demanded than
 * some host with room; it never waits longer than {@code maxWaitMillis} after its first decline
 * plus one heartbeat of a host with room; the rule depends on its arguments only.
 */
public final class AmSiting {
  /** What an AM does with room on one host. */
  public enum Verdict {
    /** Takes the room. */
    TAKE,
    /** Declines: a less demanded host has room (the first decline starts the wait). */
    WAIT
  }

  private AmSiting() {}

  /**
   * The verdict for an AM offered room on a host of demand {@code here}.
   *
   * @param least the least demand among hosts with room for the AM ({@code <= here} if this view
   *     is fresh; a stale view may say more, and then the AM takes the room)
   * @param declinedForMillis how long since the AM was first declined; negative if it never was
   * @param maxWaitMillis the longest an AM is declined; 0 makes the rule first fit
   */
  public static Verdict decide(int here, int least, long declinedForMillis, long maxWaitMillis) {
    if (maxWaitMillis <= 0 || here <= least || declinedForMillis >= maxWaitMillis) {
      return Verdict.TAKE;
    }
    return Verdict.WAIT;
  }
}
