#!/usr/bin/env bash
# Starts one role of the Dataloc docker cluster: namenode, resourcemanager, worker (DataNode +
# NodeManager) or client (waits for the cluster, writes one-block input files, runs a wordcount and
# prints its DATALOC-REPORT line, as bin/dataloc-cluster's client does) or netcheck (a timed block
# write or read, as bin/dataloc-cluster check runs it).
set -euo pipefail
conf="$HADOOP_CONF_DIR"
opens="$(cat /etc/dataloc/java-opens)"
export HADOOP_OPTS="${HADOOP_OPTS:-} $opens -Djava.net.preferIPv4Stack=true"
cp /etc/dataloc/core-site.xml /etc/dataloc/log4j.properties "$conf/"
# The containers' JVMs (the MapReduce AM, maps, reduces) get the same Java 17 flags.
sed "s#@JAVA_OPENS@#$opens#g" /etc/dataloc/mapred-site.xml > "$conf/mapred-site.xml"
# A DataNode names itself by its host name (node1..node4), as its NodeManager does.
sed "/<\/configuration>/i\\  <property><name>dfs.datanode.hostname</name><value>$(hostname)</value></property>" \
  /etc/dataloc/hdfs-site.xml > "$conf/hdfs-site.xml"
# conf/yarn-site.xml as shipped (it selects Dataloc), plus this cluster's addresses.
sed '/<\/configuration>/e cat /etc/dataloc/yarn-cluster.xml' /etc/dataloc/yarn-site.xml > "$conf/yarn-site.xml"
case "${1:-}" in
  namenode)
    export HADOOP_HEAPSIZE_MAX=512m
    [[ -d /data/nn/current ]] || hdfs namenode -format -force -nonInteractive
    exec hdfs namenode ;;
  resourcemanager)
    export HADOOP_HEAPSIZE_MAX=768m
    exec yarn resourcemanager ;;
  worker)
    # A link that costs (bin/dataloc-docker --network RATE): what this host sends is shaped.
    if [[ -n "${DATALOC_RATE:-}" ]]; then
      tc qdisc replace dev eth0 root tbf rate "$DATALOC_RATE" burst 32kb latency 400ms
    fi
    HADOOP_HEAPSIZE_MAX=256m hdfs datanode &
    export HADOOP_HEAPSIZE_MAX=384m
    exec yarn nodemanager ;;
  client)
    # shellcheck disable=SC2086
    exec "$JAVA_HOME/bin/java" -Xmx512m $opens -Djava.net.preferIPv4Stack=true \
      -Dlog4j.configuration=demo-log4j.properties -cp "/opt/dataloc/client:$(hadoop classpath)" \
      io.dataloc.it.ClusterJob "${HOSTS:-4}" "${FILES:-24}" ;;
  netcheck)
    # shellcheck disable=SC2086
    exec "$JAVA_HOME/bin/java" -Xmx256m $opens -Djava.net.preferIPv4Stack=true \
      -Dlog4j.configuration=demo-log4j.properties -cp "/opt/dataloc/client:$(hadoop classpath)" \
      io.dataloc.it.NetCheck "${@:2}" ;;
  *)
    echo "usage: dataloc-entrypoint namenode|resourcemanager|worker|client|netcheck" >&2; exit 2 ;;
esac
