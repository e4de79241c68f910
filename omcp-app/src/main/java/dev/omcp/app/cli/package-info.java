/** The {@code omcp} command line (picocli). */
package dev.omcp.app.cli;
