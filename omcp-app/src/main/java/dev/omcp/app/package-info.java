/** The OMCP launcher. */
package dev.omcp.app;
