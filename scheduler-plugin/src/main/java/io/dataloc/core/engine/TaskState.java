package io.dataloc.core.engine;

/** The life of a task inside the engine. */
public enum TaskState {
  /** Known, waiting in a queue or pending index. */
  QUEUED,
  /** Handed to a host by a decision. */
  RUNNING,
  DONE,
  /** Its job was removed before it ran. */
  CANCELLED,
  /** No task: the number is free for the next task to arrive (its job has ended). */
  FREE
}
