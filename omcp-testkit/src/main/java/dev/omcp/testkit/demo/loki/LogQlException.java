package dev.omcp.testkit.demo.loki;

/** A query the simulated Loki cannot parse; answered with 400 and the message, as Loki does. */
final class LogQlException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    LogQlException(String message) {
        super(message);
    }
}
