/** The composition root of the launcher. */
package dev.omcp.app.wiring;
