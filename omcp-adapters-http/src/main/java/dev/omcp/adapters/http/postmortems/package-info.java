/** {@code /api/postmortems}: generate, list, read and delete stored post-mortems (spec 2.13, 4.3). */
package dev.omcp.adapters.http.postmortems;
