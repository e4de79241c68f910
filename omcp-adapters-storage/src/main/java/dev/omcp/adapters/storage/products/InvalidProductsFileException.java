package dev.omcp.adapters.storage.products;

import java.util.List;

/** The Products file cannot be used; every problem is listed, none quoting the file's content beyond a field name. */
public final class InvalidProductsFileException extends Exception {
    private static final long serialVersionUID = 1L;
    private final List<String> problems;

    public InvalidProductsFileException(List<String> problems) {
        super("OMCP_PRODUCTS_FILE is invalid:\n  - " + String.join("\n  - ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
