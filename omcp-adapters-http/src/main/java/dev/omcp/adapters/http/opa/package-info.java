/** A client of OPA's Data API as the external policy engine ({@code OMCP_OPA_URL}). */
package dev.omcp.adapters.http.opa;
