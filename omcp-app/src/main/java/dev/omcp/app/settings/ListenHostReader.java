package dev.omcp.app.settings;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code HOST}: a host name or an IP literal, IPv6 with or without brackets. A port, scheme or path in
 * it is refused here, with the other settings: the HTTP server refused it only seconds into the start
 * ("cannot listen on localhost:3000:0"), after the open-on-network warning had already judged the
 * value as an address beyond loopback.
 */
final class ListenHostReader {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");
    /** Two colons at least (one is a port), an optional zone ({@code %eth0}). */
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f.]*:[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*(?:%[A-Za-z0-9._-]+)?");
    private static final Pattern BRACKETED = Pattern.compile("\\[(.*)]");
    private static final Pattern NAME_AND_PORT = Pattern.compile("([^:\\[\\]]+):([0-9]*)");
    private static final Pattern BRACKETED_AND_PORT = Pattern.compile("\\[([^\\]]*)]:([0-9]*)");
    private static final Pattern SCHEME_OR_PATH = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*://.*|.*/.*");

    private ListenHostReader() {}

    /**
     * The host to listen on, an IPv6 address without brackets: the announced URL adds them, and
     * {@code [::1]} used to be announced as {@code http://[[::1]]:3000/mcp}.
     */
    static String read(Environment environment) {
        Variable variable = Variables.HOST;
        String host = environment.string(variable);
        Matcher bracketed = BRACKETED.matcher(host);
        String bare = bracketed.matches() ? bracketed.group(1) : host;
        if (bracketed.matches() ? IPV6.matcher(bare).matches() : NAME.matcher(bare).matches() || IPV6.matcher(bare).matches()) {
            return bare;
        }
        Matcher withPort = NAME_AND_PORT.matcher(host);
        Matcher bracketedWithPort = BRACKETED_AND_PORT.matcher(host);
        Matcher split = withPort.matches() ? withPort : bracketedWithPort.matches() ? bracketedWithPort : null;
        if (SCHEME_OR_PATH.matcher(host).matches()) {
            environment.problem(variable, "takes a host or address only, without scheme or path; put the port in PORT, got '" + host + "'");
        } else if (split != null) {
            environment.problem(variable, "takes a host or address only; put the port in PORT, got '" + host + "' (HOST=" + split.group(1)
                    + " PORT=" + split.group(2) + ")");
        } else {
            environment.problem(variable, "must be a host name or an IP address (IPv6 with or without brackets: :: or [::1]), got '"
                    + host + "'");
        }
        return variable.defaultValue();
    }
}
