package io.dataloc.yarn.web;

import com.google.inject.Inject;
import com.google.inject.Singleton;
import javax.ws.rs.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;

/**
 * {@link DatalocRestApi} as Hadoop 3.3's web framework makes it (Jersey 1 with Guice: the
 * ResourceManager and its configuration injected by type). Set
 * {@code yarn.webapp.custom.webservice.class} to this class.
 */
@Singleton
@Path("/ws/v1/cluster")
public class DatalocWebServices extends DatalocRestApi {
  @Inject
  public DatalocWebServices(ResourceManager rm, Configuration conf) {
    super(rm, conf);
  }
}
