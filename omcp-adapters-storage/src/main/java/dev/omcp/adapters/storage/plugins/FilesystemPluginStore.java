package dev.omcp.adapters.storage.plugins;

import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.plugins.BundleRejectedException;
import dev.omcp.ports.plugins.LoadedPlugin;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.PluginDirectoryBusyException;
import dev.omcp.ports.plugins.PluginDirectoryWriteException;
import dev.omcp.ports.plugins.PluginLoadException;
import dev.omcp.ports.plugins.PluginPin;
import dev.omcp.ports.plugins.PluginScan;
import dev.omcp.ports.plugins.PluginStore;
import dev.omcp.ports.plugins.StagedBundle;
import dev.omcp.ports.plugins.TrustRoot;
import dev.omcp.sdk.text.LogField;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plugins directory ({@code PLUGINS_DIR}) and the trust root ({@code PLUGIN_TRUST_ROOT}).
 *
 * <p>A scan checks every sub-directory holding a {@code package.json} with the connector marker;
 * hidden directories (staging) are ignored, and so are versioned directories
 * {@code <name>-<version>} unless the sources file pins them (spec 5.8). A missing plugins directory
 * means no filesystem plugins. Thread-safe.
 */
public final class FilesystemPluginStore implements PluginStore {
    private static final Logger LOG = LoggerFactory.getLogger(FilesystemPluginStore.class);
    /** Characters of the trusted keys' description a log line keeps: a few dozen keys. */
    private static final int MAX_LOGGED_KEYS = 2_000;
    private static final Pattern VERSION_SUFFIX = Pattern.compile("-[0-9]+\\.[0-9]+\\.[0-9]+([-+][0-9A-Za-z.+-]+)?$");

    private final Path directory;
    private final TrustRootKeys trust;
    private final PluginDirectoryCheck check;
    private final ClassLoader gateway;
    /**
     * When a scan, a listing and the recovery of interrupted installs parse a manifest: only once its
     * signature verified while {@code VERIFY_PLUGINS} is on; a staged bundle always so.
     */
    private final ManifestTrust manifestTrust;
    private final Durability durability;
    private final PluginRemover.Move move;
    private final PluginLoadDeadline loadDeadline;

    /**
     * @param directory the plugins directory; it need not exist
     * @param trustRootPem the PEM public key file, or empty when {@code PLUGIN_TRUST_ROOT} is unset
     */
    public FilesystemPluginStore(Path directory, Optional<Path> trustRootPem) {
        this(directory, trustRootPem, Optional.empty());
    }

    /**
     * @param directory the plugins directory; it need not exist
     * @param trustRootPem the PEM public key file, or empty when {@code PLUGIN_TRUST_ROOT} is unset
     * @param revokedKeys the key revocation list ({@code OMCP_PLUGIN_REVOKED_KEYS}), or empty when unset:
     *     a plugin signed by a key it names is refused at install and not loaded by a scan
     */
    public FilesystemPluginStore(Path directory, Optional<Path> trustRootPem, Optional<Path> revokedKeys) {
        this(directory, trustRootPem, revokedKeys, false);
    }

    /**
     * @param directory the plugins directory; it need not exist
     * @param trustRootPem the PEM public key file, or empty when {@code PLUGIN_TRUST_ROOT} is unset
     * @param revokedKeys the key revocation list ({@code OMCP_PLUGIN_REVOKED_KEYS}), or empty when unset
     * @param signaturesDemanded whether plugins load only signed ({@code VERIFY_PLUGINS} or
     *     {@code PLUGIN_REQUIRE_SIGNATURE} on): a scan then leaves a manifest whose signature does not
     *     verify unparsed. A bundle being installed is always checked that way
     */
    public FilesystemPluginStore(Path directory, Optional<Path> trustRootPem, Optional<Path> revokedKeys, boolean signaturesDemanded) {
        this(directory, trustRootPem, revokedKeys, signaturesDemanded, Durability.DISK);
    }

    /**
     * A store that also verifies signatures against the key of the launcher jar's built-in hub, so the
     * plugins installed from that hub load: only while {@code trustRootPem} gives a usable trust root
     * (without one nothing is verified, as spec 3.5 says), and without the keys {@code revokedKeys} revokes.
     *
     * @param builtInHub the built-in hub, when the jar holds it
     */
    public FilesystemPluginStore(Path directory, Optional<Path> trustRootPem, Optional<Path> revokedKeys, boolean signaturesDemanded,
            Optional<BuiltInHub> builtInHub) {
        this(directory, TrustRootKeys.load(trustRootPem, revokedKeys, builtInHub.map(BuiltInHub::keys)), signaturesDemanded,
                Durability.DISK, FilesystemStagedBundle::move, PluginLoadDeadline.DEFAULT);
    }

    FilesystemPluginStore(Path directory, Optional<Path> trustRootPem, Optional<Path> revokedKeys, boolean signaturesDemanded,
            Durability durability) {
        this(directory, trustRootPem, revokedKeys, signaturesDemanded, durability, FilesystemStagedBundle::move);
    }

    /** @param move renames atomically; a seam so a refusing file system can be tested as root too */
    FilesystemPluginStore(Path directory, Optional<Path> trustRootPem, Optional<Path> revokedKeys, boolean signaturesDemanded,
            Durability durability, PluginRemover.Move move) {
        this(directory, trustRootPem, revokedKeys, signaturesDemanded, durability, move, PluginLoadDeadline.DEFAULT);
    }

    /** @param loadDeadline how long a plugin's code may take to load ({@link PluginLoadDeadline}); a seam so tests wait less */
    FilesystemPluginStore(Path directory, Optional<Path> trustRootPem, Optional<Path> revokedKeys, boolean signaturesDemanded,
            Durability durability, PluginRemover.Move move, Duration loadDeadline) {
        this(directory, TrustRootKeys.load(trustRootPem, revokedKeys), signaturesDemanded, durability, move, loadDeadline);
    }

    private FilesystemPluginStore(Path directory, TrustRootKeys trust, boolean signaturesDemanded, Durability durability,
            PluginRemover.Move move, Duration loadDeadline) {
        this.move = move;
        this.loadDeadline = new PluginLoadDeadline(loadDeadline);
        this.manifestTrust = ManifestTrust.of(signaturesDemanded);
        this.durability = durability;
        this.directory = directory.toAbsolutePath().normalize();
        this.trust = trust;
        this.check = new PluginDirectoryCheck(new ManifestSchema());
        this.gateway = FilesystemPluginStore.class.getClassLoader();
        if (trust.state().state() == TrustRoot.State.INVALID) {
            LOG.warn("event=trust-root-unusable reason=\"{}\"", LogField.of(trust.state().detail()));
        } else if (trust.state().isLoaded()) {
            LOG.info("event=trust-root-loaded keys=\"{}\"", LogField.of(trust.state().detail(), MAX_LOGGED_KEYS));
        }
    }

    /**
     * The trust root {@code trustRootPem} makes without the keys {@code revokedKeys} revokes, read as a
     * store reads it but not logged: for {@code omcp plugin install}, which checks it before it reads the
     * hub and says an unusable one itself (the store's {@code trust-root-unusable} said it a second time).
     */
    public static TrustRoot readTrustRoot(Optional<Path> trustRootPem, Optional<Path> revokedKeys) {
        return TrustRootKeys.load(trustRootPem, revokedKeys).state();
    }

    @Override
    public TrustRoot trustRoot() {
        return trust.state();
    }

    @Override
    public PluginScan scan(List<PluginPin> pins) {
        List<PluginCandidate> candidates = new ArrayList<>();
        boolean present = Files.isDirectory(directory);
        if (present) {
            for (Path child : children()) {
                String name = child.getFileName().toString();
                if (name.startsWith(".") || pins.stream().anyMatch(pin -> pin.directoryName().equals(name))) {
                    continue;
                }
                Optional<PluginDirectoryCheck.Checked> checked = check.checkInside(directory, child, name, ConnectorType.Origin.FILESYSTEM,
                        Optional.empty(), trust, manifestTrust);
                if (checked.isEmpty()) {
                    // any name a directory may have, a line break too
                    LOG.debug("event=plugin-dir-ignored location=\"{}\" reason=\"no package.json with a connector marker\"",
                            LogField.of(name));
                    continue;
                }
                PluginCandidate candidate = checked.get().candidate();
                if (VERSION_SUFFIX.matcher(name).find() && name.startsWith(candidate.name() + "-")) {
                    LOG.info("event=plugin-dir-ignored location=\"{}\" reason=\"a versioned directory loads only when the sources file "
                            + "pins it\"", LogField.of(name));
                    continue;
                }
                candidates.add(candidate);
            }
        }
        for (PluginPin pin : pins) {
            Path pinned = directory.resolve(pin.directoryName());
            check.checkInside(directory, pinned, pin.directoryName(), ConnectorType.Origin.PINNED, Optional.of(pin), trust, manifestTrust)
                    .ifPresent(checked -> candidates.add(checked.candidate()));
        }
        candidates.sort(Comparator.comparing(PluginCandidate::location));
        return new PluginScan(trust.state(), candidates, present);
    }

    private List<Path> children() {
        List<Path> children = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
            for (Path child : stream) {
                if (Files.isDirectory(child)) {
                    children.add(child);
                }
            }
        } catch (IOException e) {
            LOG.error("event=plugins-dir-unreadable reason=\"{}\"", e.getClass().getSimpleName());
            return List.of();
        }
        children.sort(Comparator.comparing(p -> p.getFileName().toString()));
        return children;
    }

    @Override
    public LoadedPlugin load(PluginCandidate candidate) throws PluginLoadException {
        Path root = directory.resolve(candidate.location()).normalize();
        if (!root.startsWith(directory) || root.equals(directory)) {
            throw new PluginLoadException("plugin location '" + candidate.location() + "' is not inside the plugins directory");
        }
        Optional<PluginPin> pin = candidate.origin() == ConnectorType.Origin.PINNED
                ? candidate.manifest().map(m -> new PluginPin(candidate.name(), m.version()))
                : Optional.empty();
        // the manifest is parsed again only when the files are the very bytes the candidate was checked from
        return loadChecked(candidate, check.checkInside(directory, root, candidate.location(), candidate.origin(), pin, trust,
                ManifestTrust.sameAs(candidate.fingerprint())), gateway, loadDeadline);
    }

    /**
     * Loads from a fresh check, refusing when the files changed since {@code candidate} was checked; the
     * plugin's code runs under {@code deadline}.
     */
    static LoadedPlugin loadChecked(PluginCandidate candidate, Optional<PluginDirectoryCheck.Checked> recheck, ClassLoader gateway,
            PluginLoadDeadline deadline) throws PluginLoadException {
        if (recheck.isEmpty() || !recheck.get().candidate().fingerprint().equals(candidate.fingerprint()) || recheck.get().jar() == null) {
            throw new PluginLoadException("the files of '" + candidate.location() + "' changed since they were checked; it is checked again at the next scan");
        }
        return deadline.load(candidate, recheck.get().jar(), gateway);
    }

    @Override
    public StagedBundle stage(byte[] tarball) throws BundleRejectedException, PluginDirectoryWriteException {
        List<TarballReader.Entry> entries = TarballReader.read(tarball);
        Path staging;
        try {
            Files.createDirectories(directory);
            staging = Files.createTempDirectory(directory, ".staging-");
        } catch (IOException e) {
            throw writeFailed(e);
        }
        try {
            for (TarballReader.Entry entry : entries) {
                Path target = PluginFiles.resolveInside(staging, entry.path())
                        .orElseThrow(() -> new BundleRejectedException("entry '" + entry.path() + "' escapes the plugin directory"));
                if (entry.directory()) {
                    Files.createDirectories(target);
                } else {
                    Files.createDirectories(target.getParent());
                    Files.write(target, entry.content(), java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE,
                            LinkOption.NOFOLLOW_LINKS);
                    durability.forceFile(target);
                }
            }
            forceDirectories(staging);
            // an install always demands a signature: a bundle's manifest is parsed only once its signature verified
            Optional<PluginDirectoryCheck.Checked> checked = check.check(staging, staging.getFileName().toString(),
                    ConnectorType.Origin.FILESYSTEM, Optional.empty(), trust, ManifestTrust.SIGNED);
            if (checked.isEmpty()) {
                throw new BundleRejectedException("the bundle is not a connector plugin: it has no package.json with an observabilityMcp marker of kind connector");
            }
            return new FilesystemStagedBundle(directory, staging, checked.get().candidate(), durability, move);
        } catch (BundleRejectedException e) {
            FilesystemStagedBundle.deleteTree(staging);
            throw e;
        } catch (IOException e) {
            // the reader refused every bundle-made write failure (duplicates, a file as a directory, long names): this is the host's
            FilesystemStagedBundle.deleteTree(staging);
            throw writeFailed(e);
        } catch (UncheckedIOException e) {
            FilesystemStagedBundle.deleteTree(staging);
            throw writeFailed(e.getCause());
        } catch (RuntimeException e) {
            // a bug, neither the bundle's fault nor the host's: as a refused bundle it was answered 400, blaming the request
            FilesystemStagedBundle.deleteTree(staging);
            throw e;
        }
    }

    /** Not logged here, as a lock failure is not: the installer logs its refusal, and the command or the API answer says it. */
    private PluginDirectoryWriteException writeFailed(IOException e) {
        return PluginDirectoryWriteFailure.of(directory, e);
    }

    /** Forces every directory under {@code root} (their entries: the files just written), deepest first, {@code root} last. */
    private void forceDirectories(Path root) throws IOException {
        List<Path> directories;
        try (java.util.stream.Stream<Path> walk = Files.walk(root)) {
            directories = walk.filter(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)).sorted(Comparator.reverseOrder()).toList();
        }
        directories.forEach(durability::forceDirectory);
    }

    /**
     * See {@link PluginDirectoryLock}. A failure is not logged here: the installer or the removal that
     * asked logs it as its outcome, and the command or the API answer says it; a line here said the
     * same cause a second (with {@code omcp plugin remove}, a third) time.
     */
    @Override
    public ChangeLock lockForChange() throws PluginDirectoryBusyException, PluginDirectoryWriteException {
        return PluginDirectoryLock.acquire(directory);
    }

    /** Checks only {@code <plugins dir>/<name>}, not every plugin as a scan would. */
    @Override
    public Optional<PluginCandidate> installed(String name) {
        if (!PackageMarker.isDirectoryName(name)) {
            // never a plugin's directory (one an install writes, or a versioned one), and never a path outside the plugins directory
            return Optional.empty();
        }
        Path root = directory.resolve(name);
        if (!Files.isDirectory(root)) {
            return Optional.empty();
        }
        return check.checkInside(directory, root, name, ConnectorType.Origin.FILESYSTEM, Optional.empty(), trust, manifestTrust)
                .map(PluginDirectoryCheck.Checked::candidate);
    }

    /** See {@link PluginRemover}. */
    @Override
    public boolean remove(String name) {
        return new PluginRemover(directory, move, FilesystemStagedBundle::deleteTreeOrThrow, durability).remove(name);
    }

    /**
     * Settles what installs interrupted by a crash left in the plugins directory: deletes
     * {@code .staging-*} directories, deletes {@code .replaced-<name>-*} directories whose plugin is
     * installed, and puts the newest complete one back when it is not (see {@link InterruptedInstalls}).
     * Call it once when the gateway starts, before the first scan; never while another process may
     * be installing into the directory. Every action and failure is logged; none stops the start.
     */
    public void recoverInterruptedInstalls() {
        if (!Files.isDirectory(directory)) {
            return;
        }
        ChangeLock held;
        try {
            held = PluginDirectoryLock.acquire(directory);
        } catch (PluginDirectoryBusyException e) {
            // what looks interrupted is another process's install in progress: settling it would break that install
            LOG.warn("event=plugin-recovery-skipped reason=\"{}\" effect=\"leftovers of interrupted installs are settled at the next start\"",
                    LogField.of(e.getMessage()));
            return;
        } catch (PluginDirectoryWriteException e) {
            // a read-only plugins directory: nothing can be installed into it either, so nothing can be in progress
            new InterruptedInstalls(directory, check, trust, manifestTrust, FilesystemStagedBundle::deleteTreeOrThrow).recover();
            return;
        }
        try (held) {
            new InterruptedInstalls(directory, check, trust, manifestTrust, FilesystemStagedBundle::deleteTreeOrThrow).recover();
        }
    }

    /** The plugins directory. */
    public Path directory() {
        return directory;
    }
}
