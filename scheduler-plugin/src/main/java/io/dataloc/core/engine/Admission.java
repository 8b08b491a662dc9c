package io.dataloc.core.engine;

import io.dataloc.core.model.Evaluation;

/** What happened when a job was admitted: how many tasks, whether planned, by which assigner, the plan's evaluation, a note. */
public record Admission(long jobId, int tasks, boolean planned, String planner, Evaluation plan, String note) {}
