/** The tool registry, tool visibility and tool descriptors. */
package dev.omcp.core.tools;
