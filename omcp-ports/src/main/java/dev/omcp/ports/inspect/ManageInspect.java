package dev.omcp.ports.inspect;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Driving port: the Inspect management use cases ({@code /api/inspect/*}, spec 4.3). Thread-safe. */
public interface ManageInspect {

    /** The mode in force now and the counters. */
    InspectStatus status();

    /** Changes the mode, or says why not (the mode then is unchanged). */
    ModeChange changeMode(InspectMode requested);

    /** The observations within the window that match {@code query}, newest first. */
    List<Observation> events(ObservationQuery query);

    /** Every rule of the profile (accepted, suggested and rejected), in a stable order. */
    List<Rule> profile();

    /**
     * Derives suggested rules from the observations of the last {@code window} (spec 3.2), replacing
     * earlier suggestions for the same subject and tool; accepted and rejected rules are kept as they are.
     *
     * @param window at most the Inspect window
     */
    Derivation derive(Duration window);

    /** Applies a reviewer's edit to the rule {@code id} and saves the profile. */
    RuleChange changeRule(String id, RuleEdit edit);

    /**
     * The calls of the last {@code window} that no accepted rule covers, against the profile as it is now.
     *
     * @param tenant only this tenant's calls (a tenant-bound caller); empty: every tenant
     * @param limit at most this many listed, 1 to {@link ObservationQuery#MAX_LIMIT}
     */
    DeviationReport deviations(Duration window, Optional<String> tenant, int limit);

    /**
     * The identities-to-tools-to-sources graph of the last {@code window}.
     *
     * @param tenant only this tenant's calls; empty: every tenant
     */
    Flows flows(Duration window, Optional<String> tenant);
}
