/** JSON-P plumbing shared by the core: the cached provider. */
package dev.omcp.core.json;
