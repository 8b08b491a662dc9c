package io.dataloc.yarn.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.dataloc.yarn.DatalocFrontEnd;
import io.dataloc.yarn.LocalityScheduler;
import io.dataloc.yarn.AppViewAccess;
import io.dataloc.yarn.WaitReport;
import io.dataloc.yarn.WaitReports;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.servlet.http.HttpServletRequest;
import javax.ws.rs.GET;
import javax.ws.rs.Path;
import javax.ws.rs.PathParam;
import javax.ws.rs.Produces;
import javax.ws.rs.core.Context;
import javax.ws.rs.core.MediaType;
import javax.ws.rs.core.Response;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.RMWebServices;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.dao.SchedulerTypeInfo;
import org.apache.hadoop.yarn.webapp.WebAppException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ResourceManager's REST API with Dataloc's answers added; {@link DatalocWebServices}, selected
 * with {@code yarn.webapp.custom.webservice.class}, is this class as the line's web framework
 * injects it (it replaces the stock class and serves all of its paths). Two things change:
 *
 * <ul>
 *   <li>{@code GET /ws/v1/cluster/scheduler} answers for the standalone scheduler (the stock class
 *       answers 404 for any scheduler but its three), in the shape the RM gives a single-queue
 *       scheduler ({@link DatalocSchedulerInfo}); for the CapacityScheduler it is the stock answer.
 *   <li>{@code GET /ws/v1/cluster/scheduler/dataloc/apps} and {@code .../apps/{appid}}: why each
 *       application waits ({@link WaitReport}), in JSON, for either front end. Only the
 *       applications the caller may view when {@code yarn.webapp.filter-entity-list-by-user} is
 *       set, as on the RM's own pages; 404 for an application the plan service does not know, 403
 *       for one the caller may not view.
 * </ul>
 *
 * Each request takes the plan lock once, for one pass over the application's pending tasks (or
 * every application's): bounded as the page is.
 */
public abstract class DatalocRestApi extends RMWebServices {
  private static final Logger LOG = LoggerFactory.getLogger(DatalocRestApi.class);
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final ResourceManager rm;

  /** The ResourceManager; the subclass for the Hadoop line injects it as that line's web framework does. */
  protected DatalocRestApi(ResourceManager rm, Configuration conf) {
    super(rm, conf);
    this.rm = rm;
  }

  @Override
  public SchedulerTypeInfo getSchedulerInfo() {
    ResourceScheduler s = rm.getResourceScheduler();
    if (!(s instanceof LocalityScheduler)) {
      return super.getSchedulerInfo();
    }
    try {
      return new SchedulerTypeInfo(new DatalocSchedulerInfo(s, rm.getRMContext().getRMNodes().keySet()));
    } catch (IOException e) {
      throw new WebAppException(e);
    }
  }

  /** Why every application the caller may view waits. */
  @GET
  @Path("/scheduler/dataloc/apps")
  @Produces(MediaType.APPLICATION_JSON + "; charset=utf-8")
  public Response datalocApps(@Context HttpServletRequest request) {
    WaitReports reports = reports();
    if (reports == null) {
      return notFound("the scheduler does not run Dataloc's plan service");
    }
    List<Object> apps = new ArrayList<>();
    AppViewAccess access = access();
    String caller = caller(request);
    for (WaitReport r : reports.all((user, application) -> access.listed(caller, user, application))) {
      apps.add(r.asMap());
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("apps", apps);
    return json(body);
  }

  /** Why one application waits. */
  @GET
  @Path("/scheduler/dataloc/apps/{appid}")
  @Produces(MediaType.APPLICATION_JSON + "; charset=utf-8")
  public Response datalocApp(@Context HttpServletRequest request, @PathParam("appid") String appId) {
    WaitReports reports = reports();
    if (reports == null) {
      return notFound("the scheduler does not run Dataloc's plan service");
    }
    ApplicationId id;
    try {
      id = ApplicationId.fromString(appId);
    } catch (IllegalArgumentException e) {
      return error(Response.Status.BAD_REQUEST, "not an application id: " + appId);
    }
    String user = reports.userOf(id);
    if (user != null && !access().mayView(caller(request), user, id.toString())) {
      return error(Response.Status.FORBIDDEN, "the caller may not view " + appId); // before the report is made
    }
    WaitReport r = user == null ? null : reports.of(id);
    if (r == null) {
      return notFound("Dataloc does not know " + appId + " (ended, or not submitted to this ResourceManager)");
    }
    return json(r.asMap());
  }

  private WaitReports reports() {
    ResourceScheduler s = rm.getResourceScheduler();
    return s instanceof DatalocFrontEnd ? ((DatalocFrontEnd) s).waitReports() : null;
  }

  private AppViewAccess access() {
    return AppViewAccess.of(rm.getConfig(), rm.getApplicationACLsManager());
  }

  private static String caller(HttpServletRequest request) {
    return request == null ? null : request.getRemoteUser();
  }

  private static Response json(Object body) {
    try {
      return Response.ok(JSON.writeValueAsString(body), MediaType.APPLICATION_JSON + "; charset=utf-8").build();
    } catch (JsonProcessingException e) {
      LOG.warn("Dataloc: could not write a report as JSON", e);
      return error(Response.Status.INTERNAL_SERVER_ERROR, "could not write the report: " + e.getMessage());
    }
  }

  private static Response notFound(String why) {
    return error(Response.Status.NOT_FOUND, why);
  }

  private static Response error(Response.Status status, String message) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", status.getStatusCode());
    body.put("message", message);
    try {
      return Response.status(status).entity(JSON.writeValueAsString(body)).type(MediaType.APPLICATION_JSON_TYPE).build();
    } catch (JsonProcessingException e) {
      return Response.status(status).entity(message).type(MediaType.TEXT_PLAIN_TYPE).build();
    }
  }
}
