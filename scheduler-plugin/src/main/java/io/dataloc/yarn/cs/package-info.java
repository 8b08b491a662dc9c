/**
 * Dataloc inside the CapacityScheduler: {@link io.dataloc.yarn.cs.DatalocCapacityScheduler} (the
 * stock scheduler, telling the plan service what it does) and
 * {@link io.dataloc.yarn.cs.DatalocPlacementAllocator} (the placement component whose answers for
 * a planned job's map key follow the plan). The queues choose which job a node serves; the plan
 * says whether that job should take it. The plan service itself is {@code io.dataloc.yarn}'s,
 * shared with the standalone scheduler; its lock is a leaf here (see
 * {@code io.dataloc.yarn.PlanService}).
 *
 * <p>An operator turns it on with two lines of {@code yarn-site.xml}:
 *
 * <pre>
 *   yarn.resourcemanager.scheduler.class      = io.dataloc.yarn.cs.DatalocCapacityScheduler
 *   yarn.scheduler.app-placement-allocator.class = io.dataloc.yarn.cs.DatalocPlacementAllocator
 * </pre>
 */
package io.dataloc.yarn.cs;
