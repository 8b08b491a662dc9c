package io.dataloc.yarn;

import com.google.inject.Inject;
import io.dataloc.core.model.Units;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.RmView;
import org.apache.hadoop.yarn.webapp.SubView;
import org.apache.hadoop.yarn.webapp.hamlet2.Hamlet;
import org.apache.hadoop.yarn.webapp.view.HtmlBlock;
import org.apache.hadoop.yarn.webapp.view.HtmlPage;

/**
 * The RM's {@code /cluster/scheduler} page for Dataloc, selected with
 * {@code yarn.http.rmwebapp.scheduler.page.class} (the stock page fails with a custom scheduler):
 * the settings, the containers handed out by locality level (in total, and per minute over the
 * last hour as a chart), and every job with its placement source, plan against the lower bound,
 * locality so far, the nodes its maps ran on and why it waits (its details over REST) — with
 * {@code yarn.webapp.filter-entity-list-by-user}, only the jobs the caller may view.
 */
public class DatalocSchedulerPage extends RmView {
  /** The key that installs Dataloc's web services (Hadoop 3.4 and later), and their class. */
  static final String WEB_SERVICES_KEY = "yarn.webapp.custom.webservice.class";
  static final String WEB_SERVICES = "io.dataloc.yarn.web.DatalocWebServices";
  /** This jar has them: not on Hadoop 3.3, whose RM cannot install a custom web-service class. */
  private static final boolean HAS_WEB_SERVICES = present(WEB_SERVICES);

  private static boolean present(String className) {
    try {
      Class.forName(className, false, DatalocSchedulerPage.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  @Override
  protected void preHead(Hamlet.HTML<HtmlPage.__> html) {
    super.preHead(html);
    setTitle("Dataloc scheduler");
  }

  @Override
  protected Class<? extends SubView> content() {
    return DatalocBlock.class;
  }

  /** The page body. */
  public static class DatalocBlock extends HtmlBlock {
    private final ResourceManager rm;

    @Inject
    public DatalocBlock(ResourceManager rm) {
      this.rm = rm;
    }

    @Override
    protected void render(Block html) {
      if (!(rm.getResourceScheduler() instanceof LocalityScheduler)) {
        html.p().__("The scheduler is not Dataloc's LocalityScheduler.").__();
        return;
      }
      LocalityScheduler s = (LocalityScheduler) rm.getResourceScheduler();
      Settings st = s.settings();
      DatalocMetrics m = s.datalocMetrics();
      html.h2("Dataloc locality scheduler" + (s.isDegraded() ? " (degraded to plain locality scheduling)" : ""));
      html.p().__("Queue: default, " + s.getNumClusterNodes() + " nodes. Assigner " + st.assigner() + ", online policy "
          + st.policy() + ", job ordering " + st.ordering() + ".").__();
      html.p().__(String.format(Locale.ROOT,
          "Map containers: %d node-local, %d rack-local, %d off-switch; other containers %d. Plans %d, failed %d,"
              + " over budget %d; placement read failures %d; errors %d.",
          m.mapsNodeLocal(), m.mapsRackLocal(), m.mapsOffSwitch(), m.otherContainers(), m.plansMade(), m.plansFailed(),
          m.plansOverBudget.value(), m.placementFailures(), m.errors())).__();
      html.h3("Map containers per minute by locality, last hour");
      // Raw markup: the chart holds numbers and fixed words only, never a user's text.
      html.div("#dataloc-chart")._r(LocalityChart.svg(s.reports().localityLastHour())).__();
      // Each job the caller may see with its waits, one hold of the plan lock per job.
      Map<String, WaitReport> why = new HashMap<>();
      List<JobReport> jobs = new ArrayList<>();
      AppViewAccess access = AppViewAccess.of(rm.getConfig(), rm.getApplicationACLsManager());
      String caller = request().getRemoteUser();
      for (WaitReport w : s.waitReports().all((user, application) -> access.listed(caller, user, application))) {
        why.put(w.application(), w);
        jobs.add(w.job());
      }
      html.h3("Jobs");
      Hamlet.TBODY<Hamlet.TABLE<Hamlet>> body = html.table("#dataloc-jobs").thead().tr()
          .th("Application").th("User").th("Phase").th("Placement").th("Planner").th("Maps").th("Plan makespan")
          .th("Lower bound").th("Plan ms").th("Node-local").th("Rack-local").th("Off-switch").th("Pending")
          .th("Running").th("Maps ran on").th("Why waiting").th("Note").__().__().tbody();
      // Each job's details over REST, where Dataloc's web services are installed.
      boolean rest = HAS_WEB_SERVICES && WEB_SERVICES.equals(rm.getConfig().getTrimmed(WEB_SERVICES_KEY));
      for (JobReport j : visibleTo(jobs, caller, access)) {
        WaitReport w = why.get(j.application());
        body.tr().td(j.application()).td(j.user()).td(j.phase()).td(j.source()).td(j.planner())
            .td(String.valueOf(j.tasks())).td(j.plan() == null ? "-" : Units.format(j.plan().makespan()))
            .td(j.plan() == null ? "-" : Units.format(j.plan().lowerBound()))
            .td(String.format(Locale.ROOT, "%.1f", j.planMillis())).td(String.valueOf(j.nodeLocal()))
            .td(String.valueOf(j.rackLocal())).td(String.valueOf(j.offSwitch())).td(String.valueOf(j.pending()))
            .td(String.valueOf(j.running())).td(w.ranOn(4))
            .td().__(w.summary() + " ")
            .a(rest ? "/ws/v1/cluster/scheduler/dataloc/apps/" + j.application() : "#", rest ? "details" : "").__()
            .td(publicNote(j.note())).__();
      }
      body.__().__();
    }
  }

  /** The jobs the page lists to {@code remoteUser} (null: a caller the request does not name). */
  static List<JobReport> visibleTo(List<JobReport> jobs, String remoteUser, AppViewAccess access) {
    List<JobReport> out = new ArrayList<>();
    for (JobReport j : jobs) {
      if (access.listed(remoteUser, j.user(), j.application())) {
        out.add(j);
      }
    }
    return out;
  }

  private static final java.util.regex.Pattern KEY = java.util.regex.Pattern.compile("yarn\\.scheduler\\.dataloc\\.[\\w.-]+");

  /**
   * A job's note as anyone who can see the page may read it: its kind, and the key of a bound it
   * went past, but no exception text (paths, hosts, messages of other systems): that is in the
   * ResourceManager's log.
   */
  static String publicNote(String note) {
    if (note == null) {
      return "";
    }
    int colon = note.indexOf(": ");
    if (colon < 0) {
      return note;
    }
    java.util.regex.Matcher m = KEY.matcher(note);
    return note.substring(0, colon) + (m.find() ? " (" + m.group() + ")" : "") + "; details in the ResourceManager log";
  }
}
