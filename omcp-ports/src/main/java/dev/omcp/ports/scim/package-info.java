/** Where SCIM 2.0 provisioned users and groups are kept (spec 2.15, 4.5, 5.6). */
package dev.omcp.ports.scim;
