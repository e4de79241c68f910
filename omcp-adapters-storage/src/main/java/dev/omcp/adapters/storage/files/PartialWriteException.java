package dev.omcp.adapters.storage.files;

import java.io.IOException;

/**
 * An append that failed part way ({@link PrivateFiles#appendWhole}); its cause is the write's
 * failure. {@link #undone()} says whether the file was cut back to where the append began: when it
 * was not, a fragment is left that the next line would be glued onto, and the cut's own failure is
 * suppressed in this exception.
 */
public final class PartialWriteException extends IOException {
    private static final long serialVersionUID = 1L;
    private final boolean undone;

    PartialWriteException(IOException failure, boolean undone) {
        super(failure.getMessage(), failure);
        this.undone = undone;
    }

    /** Whether the file is back to where the append began. */
    public boolean undone() {
        return undone;
    }
}
