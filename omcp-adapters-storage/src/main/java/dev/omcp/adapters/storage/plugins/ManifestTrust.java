package dev.omcp.adapters.storage.plugins;

import dev.omcp.ports.plugins.CheckResult;
import java.util.Objects;

/**
 * When the raw bytes of a plugin's manifest may reach the JSON parser and the schema validator.
 * Every check names one: no path parses a manifest by default. Where signatures are demanded (spec
 * 3.5: verification on, and every install), content nobody trusted signed is never parsed.
 */
sealed interface ManifestTrust {

    /** Verification off: filesystem plugins load unsigned, so their manifests are parsed unsigned (spec 3.5). */
    ManifestTrust UNSIGNED = new Unsigned();
    /** Parsed only once its detached signature verified over the raw bytes. */
    ManifestTrust SIGNED = new Signed();

    /** The trust of a scan: {@link #SIGNED} when plugins load only signed, else {@link #UNSIGNED}. */
    static ManifestTrust of(boolean signaturesDemanded) {
        return signaturesDemanded ? SIGNED : UNSIGNED;
    }

    /** Parsed only when the plugin's files are the very bytes an earlier check read (a load re-reading what was admitted). */
    static ManifestTrust sameAs(String fingerprint) {
        return new SameAs(fingerprint);
    }

    /**
     * Why the manifest must stay unparsed, or {@code null} when it may be parsed.
     *
     * @param signature the verdict on the raw manifest bytes
     * @param fingerprint the fingerprint of the raw package descriptor, manifest and entry JAR just read
     */
    String refusal(CheckResult signature, String fingerprint);

    record Unsigned() implements ManifestTrust {
        @Override
        public String refusal(CheckResult signature, String fingerprint) {
            return null;
        }
    }

    record Signed() implements ManifestTrust {
        @Override
        public String refusal(CheckResult signature, String fingerprint) {
            return switch (signature.status()) {
                case PASSED -> null;
                case FAILED -> "its signature did not verify (see the signature check), and an unverified manifest is not read";
                // no usable trust root, or no manifest bytes: nothing could vouch for them
                case NOT_CHECKED -> "its signature could not be checked (see the signature check), and an unverified manifest is not read";
            };
        }
    }

    record SameAs(String fingerprint) implements ManifestTrust {
        public SameAs {
            Objects.requireNonNull(fingerprint, "fingerprint");
        }

        @Override
        public String refusal(CheckResult signature, String actual) {
            return fingerprint.equals(actual) ? null
                    : "the plugin's files changed since they were checked, and a manifest that was not checked is not read";
        }
    }
}
