/** The SCIM directory's file store ({@code OMCP_SCIM_STORE}, spec 5.6). */
package dev.omcp.adapters.storage.scim;
