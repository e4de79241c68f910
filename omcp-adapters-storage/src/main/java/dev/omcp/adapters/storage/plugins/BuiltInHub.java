package dev.omcp.adapters.storage.plugins;

import dev.omcp.ports.plugins.ConnectorHub;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The built-in connector hub (spec 1.5; spec 5.8: what an unset {@code HUB_CATALOG_URL} means): the
 * static catalog of the reference connectors that the build signed and laid into the launcher jar,
 * beside the public half of the key it signed them with. The build generates that key pair on every
 * run and drops the private half, so the key has signed those plugins and nothing else. The hub is read
 * from the class path, with no network and no temporary file, by the same reader as every hub
 * ({@link StaticConnectorHub} over {@link BundledHubFiles}): its limits and checks all apply.
 *
 * <p>Trust: the jar is the anchor. A hub inside the jar can only have been put there by whoever built
 * the jar, so its tarballs verify against the key beside it and only that key: {@code PLUGIN_TRUST_ROOT}
 * plays no part in them, and the key verifies no tarball of another hub. The plugins it holds carry
 * manifests signed with the same key, so a {@link FilesystemPluginStore} given this hub trusts the key
 * for manifests too, next to a usable {@code PLUGIN_TRUST_ROOT}. The revocation list
 * ({@code OMCP_PLUGIN_REVOKED_KEYS}) applies to it as to every key. Thread-safe.
 */
public final class BuiltInHub {
    /** What the built-in hub is called where a hub's location is shown ({@code GET /api/hub/catalog}'s {@code source}). */
    public static final String SOURCE = "builtin";

    private final ClassLoader loader;
    private final String folder;
    private final TrustRootKeys key;

    private BuiltInHub(ClassLoader loader, String folder, TrustRootKeys key) {
        this.loader = loader;
        this.folder = folder;
        this.key = key;
    }

    /** Whether the jar holds the built-in hub. */
    public sealed interface Lookup {
        /** The hub and its key are in the jar. */
        record Found(BuiltInHub hub) implements Lookup {
            public Found {
                Objects.requireNonNull(hub, "hub");
            }
        }

        /**
         * They are not, or not usable: a jar built without its test phase, where the reference plugins
         * are signed.
         *
         * @param reason what is missing, naming the resource
         */
        record Missing(String reason) implements Lookup {
            public Missing {
                Objects.requireNonNull(reason, "reason");
            }
        }

        /** The hub, when found. */
        default Optional<BuiltInHub> found() {
            return this instanceof Found found ? Optional.of(found.hub()) : Optional.empty();
        }
    }

    /**
     * Looks for the built-in hub among {@code loader}'s resources.
     *
     * @param folder the resource folder holding its {@code index.json}, ending in {@code /}
     * @param keyResource the resource holding the PEM public key its tarballs and manifests are signed with
     */
    public static Lookup find(ClassLoader loader, String folder, String keyResource) {
        Objects.requireNonNull(loader, "loader");
        try (InputStream index = loader.getResourceAsStream(folder + "index.json");
                InputStream pem = loader.getResourceAsStream(keyResource)) {
            if (index == null) {
                return new Lookup.Missing("the jar holds no " + folder + "index.json");
            }
            if (pem == null) {
                return new Lookup.Missing("the jar holds no " + keyResource + ", the key its connectors are signed with");
            }
            byte[] bytes = pem.readNBytes(PluginLimits.MAX_TRUST_ROOT_BYTES + 1);
            if (bytes.length > PluginLimits.MAX_TRUST_ROOT_BYTES) {
                return new Lookup.Missing("its key " + keyResource + " is larger than " + PluginLimits.MAX_TRUST_ROOT_BYTES + " bytes");
            }
            TrustRootKeys key = TrustRootKeys.builtInHub(new String(bytes, StandardCharsets.UTF_8));
            if (!key.state().isLoaded()) {
                return new Lookup.Missing("its key " + keyResource + " is unusable: " + key.state().detail());
            }
            return new Lookup.Found(new BuiltInHub(loader, folder, key));
        } catch (IOException e) {
            return new Lookup.Missing("its resources cannot be read from the jar: " + e.getClass().getSimpleName());
        }
    }

    /**
     * The hub catalog, whose tarballs verify against the built-in key without the keys
     * {@code revokedKeys} ({@code OMCP_PLUGIN_REVOKED_KEYS}) names.
     */
    public ConnectorHub connectorHub(Optional<Path> revokedKeys) {
        return StaticConnectorHub.of(new BundledHubFiles(loader, folder), verifying(revokedKeys));
    }

    /** The key, described as logs show keys ({@code Ed25519 key sha256:1a2b3c4d5e6f7a8b}), so an operator can revoke it. */
    public String keyDescription() {
        return key.state().detail();
    }

    /** The built-in key, for a store that trusts it next to {@code PLUGIN_TRUST_ROOT}. */
    TrustRootKeys keys() {
        return key;
    }

    /** The key unless revoked; a refusal says whose key it is, since no file of the operator holds it. */
    private TrustRootKeys verifying(Optional<Path> revokedKeys) {
        return switch (RevokedKeys.load(revokedKeys)) {
            case RevokedKeys.Loaded.Unusable unusable -> TrustRootKeys.invalid(
                    TrustRootKeys.unreadableRevocations(revokedKeys.orElseThrow(), unusable.reason()));
            case RevokedKeys.Loaded.Keys list -> key.keys().stream().allMatch(list.keys()::revokes)
                    ? TrustRootKeys.invalid("the built-in hub's key (" + keyDescription() + ") is revoked by OMCP_PLUGIN_REVOKED_KEYS, so "
                            + "none of its connectors installs; install them from a hub (HUB_CATALOG_URL) signed by a key you trust")
                    : key.without(list.keys());
        };
    }
}
