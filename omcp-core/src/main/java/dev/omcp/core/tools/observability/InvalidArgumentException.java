package dev.omcp.core.tools.observability;

/**
 * An argument the input schema admits but the tool cannot use (a window past the retention, a
 * source that does not exist). {@link ObservabilityTool} turns it into an error result the model
 * can act on; it never leaves the tool.
 */
final class InvalidArgumentException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    InvalidArgumentException(String message) {
        super(message);
    }
}
