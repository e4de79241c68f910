package dev.omcp.app.wiring;

import dev.omcp.adapters.storage.inspect.JsonlObservations;
import dev.omcp.adapters.storage.inspect.ProfileFile;
import dev.omcp.app.settings.Settings;
import dev.omcp.core.inspect.Inspector;
import dev.omcp.core.inspect.MemoryObservations;
import dev.omcp.core.inspect.MemoryProfile;
import dev.omcp.ports.entitlements.Entitlements;
import dev.omcp.ports.inspect.InspectStatus;
import dev.omcp.ports.inspect.Observations;
import dev.omcp.ports.inspect.ProfileStore;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Inspect (spec 2.14, 3.1): the observation store and profile the settings name, and the mode they start in. */
final class InspectAssembly {
    private static final Logger LOG = LoggerFactory.getLogger(InspectAssembly.class);

    private InspectAssembly() {}

    /** The inspector; a file store's writer is closed with {@code opened}, after the HTTP server stopped. */
    static Inspector inspector(Settings.Inspect settings, Entitlements entitlements, Clock clock, OpenedParts opened) {
        Observations store;
        if (settings.file().isPresent()) {
            store = opened.add(JsonlObservations.open(settings.file().get(), clock));
        } else {
            store = new MemoryObservations();
        }
        ProfileStore profile = settings.profileFile().<ProfileStore>map(ProfileFile::open).orElseGet(MemoryProfile::new);
        // the profile is read here, so an invalid file, or enforce without an accepted rule, refuses the start
        Inspector inspector = new Inspector(settings.mode(), store, profile, entitlements, clock, settings.window());
        InspectStatus status = inspector.status();
        LOG.info("event=inspect mode={} storage={} window={}s profile={} acceptedRules={} suggestedRules={}", status.mode().wireName(),
                store.storage(), settings.window().toSeconds(), profile.storage(), status.acceptedRules(), status.suggestedRules());
        return inspector;
    }
}
