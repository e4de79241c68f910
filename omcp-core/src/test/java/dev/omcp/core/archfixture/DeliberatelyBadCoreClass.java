package dev.omcp.core.archfixture;

import java.io.File;
import java.time.Instant;

/**
 * Breaks every core rule on purpose, so {@code ArchitectureRulesCatchViolationsTest} can prove the
 * rules fail when broken. Lives in test sources only; never imported by production rules.
 */
public final class DeliberatelyBadCoreClass {
    public long readsWallClock() {
        return System.currentTimeMillis() + Instant.now().getEpochSecond();
    }

    public String readsEnvironment() {
        return System.getenv("HOME");
    }

    public boolean touchesFiles() {
        return new File("/tmp").exists();
    }

    public String usesJackson() {
        return com.fasterxml.jackson.databind.ObjectMapper.class.getName();
    }
}
