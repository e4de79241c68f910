/** JSON Schema validation of tool arguments, on {@code jakarta.json} values. */
package dev.omcp.core.schema;
