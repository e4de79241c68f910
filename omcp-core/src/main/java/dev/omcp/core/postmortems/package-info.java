/** Stored post-mortems (spec 2.13): generating through the tool chain, tenant scoping, the in-memory store. */
package dev.omcp.core.postmortems;
