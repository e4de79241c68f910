package dev.omcp.app.wiring;

import dev.omcp.core.analysis.postmortem.PostmortemTemplate;
import dev.omcp.sdk.text.LogField;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The custom post-mortem template of {@code OMCP_POSTMORTEM_TEMPLATE}, read when a post-mortem is
 * generated so an edited file applies at once (spec 4.4). The text is kept until the file's
 * modification time or size changes. A file that is missing, not a regular file, unreadable, not
 * UTF-8 or longer than {@link PostmortemTemplate#MAX_LENGTH} characters gives the built-in layout
 * (empty) and one warning per distinct problem and file version, not one per call. A leading
 * byte-order mark is dropped, as for the other settings files. Thread-safe.
 */
final class PostmortemTemplateFile implements Supplier<Optional<PostmortemTemplate>> {
    private static final Logger LOG = LoggerFactory.getLogger(PostmortemTemplateFile.class);
    /** UTF-8 needs at most 4 bytes a character: a longer file cannot be a valid template. */
    private static final int MAX_BYTES = PostmortemTemplate.MAX_LENGTH * 4;
    private static final String BYTE_ORDER_MARK = "\uFEFF";

    private record Version(FileTime modified, long size) {}

    private record Cached(Version version, PostmortemTemplate template) {}

    private final Path path;
    private final AtomicReference<Cached> cached = new AtomicReference<>();
    /** The problem last warned about (with the file version it concerned); null while the template is usable. */
    private final AtomicReference<String> lastProblem = new AtomicReference<>();

    PostmortemTemplateFile(Path path) {
        this.path = Objects.requireNonNull(path, "path");
    }

    @Override
    public Optional<PostmortemTemplate> get() {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(path, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return fallBack("the file does not exist", "");
        } catch (IOException e) {
            return fallBack("its attributes cannot be read (" + e.getClass().getSimpleName() + ")", "");
        }
        Version version = new Version(attributes.lastModifiedTime(), attributes.size());
        if (!attributes.isRegularFile()) {
            return fallBack("it is not a regular file", version.toString());
        }
        Cached current = cached.get();
        if (current != null && current.version().equals(version)) {
            return Optional.of(current.template());
        }
        if (attributes.size() > MAX_BYTES) {
            return fallBack("it is larger than " + MAX_BYTES + " bytes; a template holds at most " + PostmortemTemplate.MAX_LENGTH
                    + " characters", version.toString());
        }
        String text;
        try (InputStream in = Files.newInputStream(path)) {
            byte[] bytes = in.readNBytes(MAX_BYTES + 1);
            if (bytes.length > MAX_BYTES) {
                return fallBack("it grew past " + MAX_BYTES + " bytes while being read", version.toString());
            }
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return fallBack("it is not UTF-8 text", version.toString());
        } catch (AccessDeniedException e) {
            return fallBack("permission denied; let the gateway's user read it", version.toString());
        } catch (IOException e) {
            return fallBack("it cannot be read (" + e.getClass().getSimpleName() + ")", version.toString());
        }
        if (text.startsWith(BYTE_ORDER_MARK)) {
            // some editors start UTF-8 files with one; it would show as an invisible first character
            // of every report (and count against the length limit)
            text = text.substring(1);
        }
        PostmortemTemplate template;
        try {
            template = PostmortemTemplate.of(text);
        } catch (IllegalArgumentException e) {
            return fallBack(e.getMessage(), version.toString());
        }
        cached.set(new Cached(version, template));
        lastProblem.set(null);
        // once per version of the file: later calls are answered from the cache above
        LOG.info("event=postmortem-template-loaded path={} characters={}", path, text.length());
        return Optional.of(template);
    }

    /** The built-in layout, with a warning the first time this problem is seen for this version of the file. */
    private Optional<PostmortemTemplate> fallBack(String reason, String version) {
        cached.set(null);
        String problem = reason + "|" + version;
        if (!problem.equals(lastProblem.getAndSet(problem))) {
            LOG.warn("event=postmortem-template-unusable path={} reason=\"{}\" effect=\"post-mortems use the built-in layout\"", path,
                    LogField.of(reason));
        }
        return Optional.empty();
    }
}
