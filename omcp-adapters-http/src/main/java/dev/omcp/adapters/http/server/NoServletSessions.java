package dev.omcp.adapters.http.server;

import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.SessionHandler;
import org.eclipse.jetty.session.NullSessionCache;
import org.eclipse.jetty.session.NullSessionDataStore;

/**
 * The servlet sessions Jetty would keep, switched off. The gateway keeps its own signed session cookie
 * and never uses {@code HttpSession}, but Javalin reads the session's attributes at every WebSocket
 * upgrade, which creates one: with Javalin's default handler each upgrade, refused ones too, answered a
 * {@code JSESSIONID} cookie and left a session in memory that never expired, so anyone who could reach
 * the port grew the heap by a few hundred bytes per request, without bound. Here a session lives only
 * for its request ({@link NullSessionCache} keeps none, {@link NullSessionDataStore} stores none) and no
 * cookie is set.
 */
final class NoServletSessions {
    private NoServletSessions() {}

    /** Replaces the handler's session handler by one that keeps nothing past the request. */
    static void install(ServletContextHandler context) {
        SessionHandler sessions = new SessionHandler();
        NullSessionCache cache = new NullSessionCache(sessions);
        cache.setSessionDataStore(new NullSessionDataStore());
        sessions.setSessionCache(cache);
        sessions.setUsingCookies(false);
        context.setSessionHandler(sessions);
    }
}
