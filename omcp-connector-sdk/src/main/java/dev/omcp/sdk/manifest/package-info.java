/** The connector manifest model (spec 2.2, 2.4). */
package dev.omcp.sdk.manifest;
