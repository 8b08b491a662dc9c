package io.dataloc.yarn.web;

import javax.inject.Inject;
import javax.inject.Named;
import javax.inject.Singleton;
import javax.ws.rs.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;

/**
 * {@link DatalocRestApi} as Hadoop 3.5's web framework makes it (Jersey 2: the ResourceManager and
 * its configuration injected by name). Set {@code yarn.webapp.custom.webservice.class} to this class.
 */
@Singleton
@Path("/ws/v1/cluster")
public class DatalocWebServices extends DatalocRestApi {
  @Inject
  public DatalocWebServices(@Named("rm") ResourceManager rm, @Named("conf") Configuration conf) {
    super(rm, conf);
  }
}
