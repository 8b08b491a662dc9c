package io.dataloc.core.model;

import java.util.Arrays;

/** A complete assignment: the server of every task. Immutable. */
public final class Assignment {
  private final int[] serverOf;

  private Assignment(int[] serverOf) {
    this.serverOf = serverOf;
  }

  /**
   * Wraps (a copy of) a task→server array.
   *
   * @throws IllegalArgumentException if a task is unassigned or names no server of the problem
   */
  public static Assignment of(Problem problem, int[] serverOf) {
    if (serverOf.length != problem.tasks()) {
      throw new IllegalArgumentException(
          "assignment covers " + serverOf.length + " tasks, the problem has " + problem.tasks());
    }
    for (int t = 0; t < serverOf.length; t++) {
      if (serverOf[t] < 0 || serverOf[t] >= problem.servers()) {
        throw new IllegalArgumentException("task '" + problem.taskId(t) + "' is not assigned");
      }
    }
    return new Assignment(serverOf.clone());
  }

  public int server(int task) {
    return serverOf[task];
  }

  public int tasks() {
    return serverOf.length;
  }

  public int[] toArray() {
    return serverOf.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Assignment && Arrays.equals(serverOf, ((Assignment) o).serverOf);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(serverOf);
  }

  @Override
  public String toString() {
    return Arrays.toString(serverOf);
  }
}
