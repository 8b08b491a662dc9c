package io.dataloc.sim.io;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dataloc.core.model.Cluster;
import io.dataloc.core.model.CostModel;
import io.dataloc.core.model.PlacementGraph;
import io.dataloc.core.model.Problem;
import io.dataloc.core.model.Units;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Reads a problem instance:
 *
 * <pre>
 * {"servers":[{"id":"h1","rack":"/r1","slots":1,"initialLoad":0,"readsOut":0}, ...],
 *  "tasks":[{"id":"t1","replicas":["h1","h3"]}, ...],
 *  "cost":{"local":1,"rack":3,"remote":3,"remotePerRemoteTask":0,"perSharedRead":0}}
 * </pre>
 *
 * {@code rack}, {@code slots} (default 1), {@code initialLoad} (default 0), {@code readsOut}
 * (default 0, at most {@value #MAX_READS_OUT}), {@code cost.rack} (default: {@code cost.remote}),
 * {@code cost.remotePerRemoteTask} (default 0), {@code cost.perSharedRead} (default 0, at most
 * 1000) and the whole
 * {@code cost} object (default local 1, remote 3) are optional. Numbers take up to three decimals.
 * Every problem is reported as an {@link InvalidInstanceException} with one line naming the
 * field, server or task at fault; unknown keys are refused so that typos do not pass silently.
 */
public final class InstanceReader {
  /** The most reads a server's link may be said to carry already. */
  static final int MAX_READS_OUT = 1_000_000;
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  private InstanceReader() {}

  /** A bad instance; the message is one line meant for the operator. */
  public static final class InvalidInstanceException extends Exception {
    public InvalidInstanceException(String message) {
      super(message);
    }
  }

  public static Problem read(Path file) throws InvalidInstanceException {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new InvalidInstanceException("instance file not found: " + file);
    } catch (IOException e) {
      throw new InvalidInstanceException("cannot read instance file " + file + ": " + e.getMessage());
    }
    return parse(text, file.toString());
  }

  public static Problem parse(String text, String source) throws InvalidInstanceException {
    JsonNode root;
    try {
      root = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      var loc = e.getLocation();
      String where = loc == null ? "" : " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
      throw new InvalidInstanceException(
          "malformed JSON in " + source + where + ": " + e.getOriginalMessage().lines().findFirst().orElse(""));
    }
    if (root == null || !root.isObject()) {
      throw new InvalidInstanceException(source + ": the instance must be a JSON object");
    }
    try {
      onlyKeys(root, "the instance", Set.of("servers", "tasks", "cost"));
      Cluster cluster = servers(root.get("servers"));
      PlacementGraph graph = tasks(root.get("tasks"), cluster);
      CostModel cost = cost(root.get("cost"));
      return Problem.of(cluster, graph, cost);
    } catch (IllegalArgumentException e) {
      throw new InvalidInstanceException(source + ": " + e.getMessage());
    }
  }

  private static Cluster servers(JsonNode servers) {
    if (servers == null || !servers.isArray() || servers.isEmpty()) {
      throw new IllegalArgumentException("\"servers\" must be a non-empty array");
    }
    Cluster.Builder b = Cluster.builder();
    int i = 0;
    for (JsonNode s : servers) {
      String where = "server #" + (i + 1);
      if (!s.isObject()) {
        throw new IllegalArgumentException(where + " must be an object");
      }
      String id = text(s, "id", where, true);
      where = "server '" + id + "'";
      onlyKeys(s, where, Set.of("id", "rack", "slots", "initialLoad", "readsOut"));
      String rack = text(s, "rack", where, false);
      int slots = 1;
      if (s.has("slots")) {
        JsonNode v = s.get("slots");
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
          throw new IllegalArgumentException(where + ": slots must be a whole number, got " + v);
        }
        slots = v.intValue();
      }
      long load = s.has("initialLoad") ? units(s.get("initialLoad"), where + ": initialLoad") : 0;
      if (load < 0) {
        throw new IllegalArgumentException(where + " has a negative initialLoad");
      }
      int readsOut = 0;
      if (s.has("readsOut")) {
        JsonNode v = s.get("readsOut");
        if (!v.isIntegralNumber() || !v.canConvertToInt() || v.intValue() < 0 || v.intValue() > MAX_READS_OUT) {
          throw new IllegalArgumentException(where + ": readsOut must be a whole number from 0 to " + MAX_READS_OUT
              + ", got " + v);
        }
        readsOut = v.intValue();
      }
      b.host(id, rack, slots, load, readsOut);
      i++;
    }
    return b.build();
  }

  private static PlacementGraph tasks(JsonNode tasks, Cluster cluster) {
    if (tasks == null || !tasks.isArray()) {
      throw new IllegalArgumentException("\"tasks\" must be an array");
    }
    PlacementGraph.Builder g = PlacementGraph.builder(cluster);
    int i = 0;
    for (JsonNode t : tasks) {
      String where = "task #" + (i + 1);
      if (!t.isObject()) {
        throw new IllegalArgumentException(where + " must be an object");
      }
      String id = text(t, "id", where, true);
      where = "task '" + id + "'";
      onlyKeys(t, where, Set.of("id", "replicas"));
      JsonNode reps = t.get("replicas");
      if (reps == null || !reps.isArray() || reps.isEmpty()) {
        throw new IllegalArgumentException(where + " has no replicas");
      }
      List<String> hosts = new ArrayList<>();
      for (JsonNode r : reps) {
        if (!r.isTextual()) {
          throw new IllegalArgumentException(where + ": replicas must be server ids (strings), got " + r);
        }
        hosts.add(r.asText());
      }
      g.task(id, hosts);
      i++;
    }
    return g.build();
  }

  private static CostModel cost(JsonNode c) {
    if (c == null) {
      return CostModel.uniform(1, 3);
    }
    if (!c.isObject()) {
      throw new IllegalArgumentException("\"cost\" must be an object");
    }
    onlyKeys(c, "cost", Set.of("local", "rack", "remote", "remotePerRemoteTask", "perSharedRead"));
    long local = required(c, "local");
    long remote = required(c, "remote");
    long rack = c.has("rack") ? units(c.get("rack"), "cost.rack") : remote;
    long per = c.has("remotePerRemoteTask") ? units(c.get("remotePerRemoteTask"), "cost.remotePerRemoteTask") : 0;
    long shared = c.has("perSharedRead") ? units(c.get("perSharedRead"), "cost.perSharedRead") : 0;
    for (var e : List.of(
        new Object[] {"cost.local", local}, new Object[] {"cost.remote", remote},
        new Object[] {"cost.rack", rack}, new Object[] {"cost.remotePerRemoteTask", per},
        new Object[] {"cost.perSharedRead", shared})) {
      if ((long) e[1] < 0) {
        throw new IllegalArgumentException(e[0] + " must not be negative, got " + Units.format((long) e[1]));
      }
    }
    if (shared > Units.of(1000)) {
      throw new IllegalArgumentException("cost.perSharedRead must be at most 1000, got " + Units.format(shared));
    }
    return CostModel.of(local, rack, remote, per, shared);
  }

  private static long required(JsonNode c, String key) {
    if (!c.has(key)) {
      throw new IllegalArgumentException("cost." + key + " is missing");
    }
    return units(c.get(key), "cost." + key);
  }

  private static long units(JsonNode v, String what) {
    if (!v.isNumber()) {
      throw new IllegalArgumentException(what + " must be a number, got " + v);
    }
    try {
      return Units.of(v.decimalValue());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(what + ": " + e.getMessage());
    }
  }

  private static String text(JsonNode o, String key, String where, boolean required) {
    JsonNode v = o.get(key);
    if (v == null || v.isNull()) {
      if (required) {
        throw new IllegalArgumentException(where + " has no \"" + key + "\"");
      }
      return null;
    }
    if (!v.isTextual()) {
      throw new IllegalArgumentException(where + ": \"" + key + "\" must be a string, got " + v);
    }
    return v.asText();
  }

  private static void onlyKeys(JsonNode o, String where, Set<String> allowed) {
    for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if (!allowed.contains(k)) {
        throw new IllegalArgumentException(
            where + " has unknown key \"" + k + "\"; allowed: " + String.join(", ", allowed.stream().sorted().toList()));
      }
    }
  }
}
