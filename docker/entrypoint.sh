#!/usr/bin/env bash
# Starts one role of the Dataloc docker cluster: namenode, resourcemanager, worker (DataNode +
# NodeManager) or client (writes input and runs a wordcount, printing locality counters).
set -euo pipefail
conf="$HADOOP_CONF_DIR"
cp /etc/dataloc/core-site.xml /etc/dataloc/hdfs-site.xml /etc/dataloc/mapred-site.xml "$conf/"
# conf/yarn-site.xml as shipped (it selects Dataloc), plus this cluster's addresses.
sed '/<\/configuration>/e cat /etc/dataloc/yarn-cluster.xml' /etc/dataloc/yarn-site.xml > "$conf/yarn-site.xml"
case "${1:-}" in
  namenode)
    [[ -d /data/nn/current ]] || hdfs namenode -format -force -nonInteractive
    exec hdfs namenode ;;
  resourcemanager)
    exec yarn resourcemanager ;;
  worker)
    hdfs datanode &
    exec yarn nodemanager ;;
  client)
    until hdfs dfsadmin -report 2>/dev/null | grep -q 'Live datanodes (4)'; do sleep 2; done
    for i in $(seq 0 23); do
      yes "the quick brown fox jumps over the lazy dog $i" | head -c 900000 > /tmp/part-$i
    done
    hdfs dfs -mkdir -p /in && hdfs dfs -put -f /tmp/part-* /in/
    hdfs dfs -rm -r -f /out >/dev/null
    yarn jar "$HADOOP_HOME"/share/hadoop/mapreduce/hadoop-mapreduce-examples-*.jar wordcount /in /out 2>&1 \
      | grep -E 'Data-local map tasks|Rack-local map tasks|Other local map tasks|Launched map tasks|completed successfully|failed' ;;
  *)
    echo "usage: dataloc-entrypoint namenode|resourcemanager|worker|client" >&2; exit 2 ;;
esac
