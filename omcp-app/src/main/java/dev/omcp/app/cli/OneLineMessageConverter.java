package dev.omcp.app.cli;

import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.omcp.sdk.text.BackendText;

/**
 * A log event's message kept on its one line in the text format: control, format and
 * line-separator characters written as escapes ({@code \n}, <code>&#92;u2028</code>).
 *
 * <p>Every {@code event=...} line quotes its outside values with care, but a value that reached a
 * message unquoted (a library's warning with a request's path in it, a call site that forgot)
 * would otherwise start a second, forged line in the operator's log. The JSON format needs no such
 * net: its encoder escapes every string.
 */
public final class OneLineMessageConverter extends ClassicConverter {
    /** The pattern word that stands for this converter. */
    static final String WORD = "oneLineMsg";

    @Override
    public String convert(ILoggingEvent event) {
        return BackendText.escaped(event.getFormattedMessage());
    }
}
