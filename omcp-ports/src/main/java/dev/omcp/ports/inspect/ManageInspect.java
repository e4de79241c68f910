package dev.omcp.ports.inspect;

import java.util.List;

/** Driving port: the Inspect management use cases ({@code /api/inspect/*}, spec 4.3). Thread-safe. */
public interface ManageInspect {

    /** The mode in force now and the counters. */
    InspectStatus status();

    /** Changes the mode, or says why not (the mode then is unchanged). */
    ModeChange changeMode(InspectMode requested);

    /** The observations within the window that match {@code query}, newest first. */
    List<Observation> events(ObservationQuery query);
}
