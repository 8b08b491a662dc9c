package io.dataloc.yarn;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.ApplicationAccessType;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.security.ApplicationACLsManager;

/**
 * Who may read what Dataloc says about an application (the scheduler page's rows, the REST wait
 * reports): the application ACLs, as for the ResourceManager's own application pages. One rule for
 * every reader:
 *
 * <ul>
 *   <li>a caller the request names may view an application if the ACLs let it view the
 *       application ({@code VIEW_APP}: its owner, the admins, the users its ACL names; anyone when
 *       {@code yarn.acl.enable} is off);
 *   <li>a caller the request does not name may view only when ACLs are off (with them on, the RM's
 *       authentication filter names every caller it lets in, so an unnamed one knows nothing);
 *   <li>a list shows every application unless {@code yarn.webapp.filter-entity-list-by-user} is set;
 *       then only those the caller may view.
 * </ul>
 */
public final class AppViewAccess {
  /** The application ACLs' answer for a named caller. */
  public interface Check {
    boolean mayView(UserGroupInformation caller, String owner, ApplicationId application);
  }

  private final boolean aclsOn;
  private final boolean filterLists;
  private final Check check;

  public AppViewAccess(boolean aclsOn, boolean filterLists, Check check) {
    this.aclsOn = aclsOn;
    this.filterLists = filterLists;
    this.check = check;
  }

  /** The ResourceManager's configuration and its application ACLs. */
  public static AppViewAccess of(Configuration conf, ApplicationACLsManager acls) {
    return new AppViewAccess(YarnConfiguration.isAclEnabled(conf),
        conf.getBoolean(YarnConfiguration.FILTER_ENTITY_LIST_BY_USER,
            YarnConfiguration.DEFAULT_DISPLAY_APPS_FOR_LOGGED_IN_USER),
        (caller, owner, app) -> acls.checkAccess(caller, ApplicationAccessType.VIEW_APP, owner, app));
  }

  /** Whether {@code remoteUser} (null: the request names no caller) may view the application. */
  public boolean mayView(String remoteUser, String owner, String application) {
    if (remoteUser == null) {
      return !aclsOn;
    }
    return check.mayView(UserGroupInformation.createRemoteUser(remoteUser), owner, ApplicationId.fromString(application));
  }

  /** Whether a list shown to {@code remoteUser} includes the application. */
  public boolean listed(String remoteUser, String owner, String application) {
    return !filterLists || mayView(remoteUser, owner, application);
  }
}
