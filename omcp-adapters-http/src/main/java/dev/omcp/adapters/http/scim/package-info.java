/** SCIM 2.0 over HTTP at {@code /scim/v2} (spec 4.5): bearer check, media types, error shape, discovery documents. */
package dev.omcp.adapters.http.scim;
