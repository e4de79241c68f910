package dev.omcp.testkit.demo.prometheus;

/** A query the simulated Prometheus cannot parse or evaluate; answered as {@code bad_data}. */
final class PromQlException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    PromQlException(String message) {
        super(message);
    }
}
