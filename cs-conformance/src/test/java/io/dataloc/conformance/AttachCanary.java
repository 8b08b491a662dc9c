package io.dataloc.conformance;

import io.dataloc.yarn.cs.DatalocPlacementAllocator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The canary, registered for every test class of this module (JUnit's extension autodetection):
 * a class during which Dataloc's placement component never attached fails. The CapacityScheduler's
 * factory falls back to its stock allocator without a word when the key is missing, misspelt or
 * unread (a test that builds {@code new Configuration(false)}); a green run must mean the
 * component was there.
 *
 * <p>Attaches are summed per class over the whole test JVM: Surefire reruns only the methods that
 * failed, in the same JVM, and a rerun method may be one that never builds an application (a class
 * whose first run attached must not fail because its rerun of one such method did not).
 */
public class AttachCanary implements BeforeAllCallback, AfterAllCallback {
  private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(AttachCanary.class);
  private static final Map<String, Long> ATTACHES_BY_CLASS = new ConcurrentHashMap<>();

  @Override
  public void beforeAll(ExtensionContext context) throws ClassNotFoundException {
    context.getStore(NS).put("attaches", DatalocPlacementAllocator.attaches());
    // Dataloc's classes are loaded before the test, as in a ResourceManager that has run a while:
    // some of these tests compare times at millisecond resolution, and the component's first
    // attach would otherwise load them in the middle of one.
    for (String c : new String[] {"io.dataloc.yarn.cs.DatalocPlacementAllocator",
        "io.dataloc.yarn.cs.DatalocCapacityScheduler", "io.dataloc.yarn.CapacityPlans", "io.dataloc.yarn.FaultInjector"}) {
      Class.forName(c, true, AttachCanary.class.getClassLoader());
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    long before = context.getStore(NS).get("attaches", Long.class);
    long during = DatalocPlacementAllocator.attaches() - before;
    long total = ATTACHES_BY_CLASS.merge(context.getDisplayName(), during, Long::sum);
    System.out.println("Dataloc canary: " + context.getDisplayName() + ": the placement component attached "
        + during + " times (" + total + " in every run of this class)");
    if (total <= 0) {
      throw new AssertionError("Dataloc's placement component never attached during " + context.getDisplayName()
          + ": the CapacityScheduler ran with its stock allocator (is yarn.scheduler.app-placement-allocator.class"
          + " read?)");
    }
  }
}
