/** The SCIM directory's file store ({@code OMCP_SCIM_STORE}, spec 5.6) and the JSON document every SCIM store keeps. */
package dev.omcp.adapters.storage.scim;
