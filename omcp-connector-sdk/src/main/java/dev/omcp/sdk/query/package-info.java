/** Queries connectors answer and the values they answer with. */
package dev.omcp.sdk.query;
