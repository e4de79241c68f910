package dev.omcp.core.analysis.postmortem;

import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A custom post-mortem layout ({@code OMCP_POSTMORTEM_TEMPLATE}, spec 4.4): markdown text with
 * {@code {{token}}} placeholders. The caller reads the file; when it cannot (missing, unreadable,
 * too large: {@link #of} refuses it) the caller falls back to {@link PostmortemMarkdown#render}.
 *
 * <p>Tokens: {@code service}, {@code window}, {@code from}, {@code to}, {@code tenant} expand to the
 * value; {@code synopsis}, {@code timeline}, {@code blastRadius}, {@code signals}, {@code traces},
 * {@code logHighlights}, {@code followUps} to the rendered markdown block of that section (its
 * note when omitted by a situation rule; empty for log highlights when none were extracted and no
 * logs source failed).
 * Every value is escaped as in the built-in layout ({@link PostmortemMarkdown#text}): a name from a backend or a
 * caller cannot add a link, an image, HTML or a line to the operator's layout.
 * Whitespace inside the braces is allowed ({@code {{ service }}}). An unknown token stays verbatim.
 * Expansion is a single pass: text that arrives through a token (a log line containing
 * {@code {{synopsis}}}) is never expanded again. The no-signal notice, when there is one, is
 * prepended to the expanded template. A template whose expansion would be longer than
 * {@link #MAX_RENDERED_LENGTH} gives the built-in layout instead, as an unreadable one does.
 */
public final class PostmortemTemplate {
    private static final Logger LOG = LoggerFactory.getLogger(PostmortemTemplate.class);
    /** The largest template accepted. */
    public static final int MAX_LENGTH = 256 * 1024;
    /**
     * The longest draft a template may expand to: four times the longest template, room for several
     * copies of every section. One token repeated over the whole template would otherwise make
     * each call build hundreds of megabytes.
     */
    public static final int MAX_RENDERED_LENGTH = 4 * MAX_LENGTH;
    private static final Pattern TOKEN = Pattern.compile("\\{\\{\\s*([A-Za-z]+)\\s*}}");

    private final String text;

    private PostmortemTemplate(String text) {
        this.text = text;
    }

    /**
     * A template from its text.
     *
     * @throws IllegalArgumentException when the text is longer than {@value #MAX_LENGTH} characters
     *     (the caller then falls back to the built-in layout and says why)
     */
    public static PostmortemTemplate of(String text) {
        Objects.requireNonNull(text, "text");
        if (text.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("post-mortem template is " + text.length() + " characters; at most " + MAX_LENGTH
                    + " are accepted");
        }
        return new PostmortemTemplate(text);
    }

    /**
     * Expands the template for a report; the built-in layout when the expansion would be longer
     * than {@value #MAX_RENDERED_LENGTH} characters (a warning in the log says so).
     */
    public String render(PostmortemReport r) {
        PostmortemMarkdown.Blocks b = PostmortemMarkdown.blocks(r);
        Map<String, String> values = Map.ofEntries(
                // one line each and inert, as in the built-in layout: a tenant comes from an identity provider's claim
                Map.entry("service", PostmortemMarkdown.cell(r.service())),
                Map.entry("window", PostmortemMarkdown.cell(r.window())),
                Map.entry("from", r.from().toString()),
                Map.entry("to", r.to().toString()),
                Map.entry("tenant", PostmortemMarkdown.cell(r.tenant())),
                Map.entry("synopsis", b.synopsis().stripTrailing()),
                Map.entry("timeline", b.timeline().stripTrailing()),
                Map.entry("blastRadius", b.blastRadius().stripTrailing()),
                Map.entry("signals", b.signals().stripTrailing()),
                Map.entry("traces", b.traces().stripTrailing()),
                Map.entry("logHighlights", r.showsLogHighlights() ? b.logHighlights().stripTrailing() : ""),
                Map.entry("followUps", b.followUps().stripTrailing()));
        Matcher m = TOKEN.matcher(text);
        StringBuilder out = new StringBuilder(text.length() + 4096);
        r.noSignalNotice().ifPresent(n -> out.append(PostmortemMarkdown.notice(n)));
        int last = 0;
        while (m.find()) {
            out.append(text, last, m.start());
            String value = values.get(m.group(1));
            String expansion = value != null ? value : m.group();
            if (out.length() + expansion.length() + (text.length() - m.end()) > MAX_RENDERED_LENGTH) {
                // checked before appending: a runaway template never builds more than the limit
                LOG.warn("event=postmortem-template-too-large limit={} token={} effect=\"this draft uses the built-in layout\" "
                        + "fix=\"repeat the section tokens of OMCP_POSTMORTEM_TEMPLATE less\"", MAX_RENDERED_LENGTH, m.group(1));
                return PostmortemMarkdown.render(r);
            }
            out.append(expansion);
            last = m.end();
        }
        out.append(text, last, text.length());
        return out.toString();
    }
}
