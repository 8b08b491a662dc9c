package io.dataloc.yarn;

import io.dataloc.core.model.Evaluation;

/** One job as the scheduler page shows it: its state, its plan, where its maps ran, and why the last one did. */
public record JobReport(String application, String user, String phase, String source, String planner, int tasks,
    Evaluation plan, double planMillis, int nodeLocal, int rackLocal, int offSwitch, int pending, int running,
    String note, String lastReason) {}
