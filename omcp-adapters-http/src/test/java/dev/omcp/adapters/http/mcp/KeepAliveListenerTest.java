package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.junit.jupiter.api.Test;

/** The listener that tells the keep-alive what arrived and hands every event on to Javalin's own. */
class KeepAliveListenerTest {
    private final List<String> delegated = new ArrayList<>();
    private final List<Session> heard = new ArrayList<>();
    private final Session session = (Session) Proxy.newProxyInstance(
            getClass().getClassLoader(), new Class<?>[] {Session.class}, (proxy, method, args) -> switch (method.getName()) {
                case "hashCode" -> System.identityHashCode(proxy);
                case "equals" -> proxy == args[0];
                case "toString" -> "session";
                default -> throw new UnsupportedOperationException(method.getName());
            });

    private final Session.Listener javalin = new Session.Listener.AutoDemanding() {
        @Override
        public void onWebSocketOpen(Session s) {
            delegated.add("open");
        }

        @Override
        public void onWebSocketText(String message) {
            delegated.add("text:" + message);
        }

        @Override
        public void onWebSocketBinary(ByteBuffer payload, Callback callback) {
            delegated.add("binary:" + payload.remaining());
        }

        @Override
        public void onWebSocketPong(ByteBuffer payload) {
            delegated.add("pong");
        }

        @Override
        public void onWebSocketClose(int statusCode, String reason, Callback callback) {
            delegated.add("close:" + statusCode);
        }

        @Override
        public void onWebSocketError(Throwable cause) {
            delegated.add("error:" + cause.getMessage());
        }
    };

    private final KeepAliveListener listener = new KeepAliveListener(javalin, heard::add);

    @Test
    void pongsTextAndBinaryFrames_areReportedWithTheirSession_andHandedOn() {
        listener.onWebSocketOpen(session);
        listener.onWebSocketPong(ByteBuffer.allocate(0));
        listener.onWebSocketText("{}");
        listener.onWebSocketBinary(ByteBuffer.wrap(new byte[3]), Callback.NOOP);
        assertThat(heard).containsExactly(session, session, session);
        assertThat(delegated).containsExactly("open", "pong", "text:{}", "binary:3");
    }

    @Test
    void closeAndError_areHandedOn_butAreNotProofOfLife() {
        listener.onWebSocketOpen(session);
        listener.onWebSocketError(new IllegalStateException("broken"));
        listener.onWebSocketClose(1006, "gone", Callback.NOOP);
        assertThat(heard).isEmpty();
        assertThat(delegated).containsExactly("open", "error:broken", "close:1006");
    }

    @Test
    void aFrameBeforeTheSocketOpened_isHandedOnButNotReported() {
        listener.onWebSocketText("early");
        assertThat(heard).isEmpty();
        assertThat(delegated).containsExactly("text:early");
    }

    /**
     * Jetty calls only the listener methods a class overrides. If a Javalin upgrade overrides one
     * more (partial messages, pings, frames), the wrapper would silently swallow that event: this
     * test fails first.
     */
    @Test
    void overridesExactlyTheListenerMethodsJavalinsConnectionOverrides_plusPong() throws Exception {
        Class<?> javalinConnection = Class.forName("io.javalin.websocket.WsConnection");
        Set<String> javalins = listenerMethodsDeclaredBy(javalinConnection);
        assertThat(javalins).as("Javalin's own listener still ignores pongs").doesNotContain("onWebSocketPong(ByteBuffer)");
        Set<String> expected = new java.util.TreeSet<>(javalins);
        expected.add("onWebSocketPong(ByteBuffer)");
        assertThat(listenerMethodsDeclaredBy(KeepAliveListener.class)).isEqualTo(expected);
    }

    @Test
    void isPublicWithPublicMethods_becauseJettyCallsItThroughAPublicLookup() {
        assertThat(Modifier.isPublic(KeepAliveListener.class.getModifiers())).isTrue();
        assertThat(Arrays.stream(KeepAliveListener.class.getDeclaredMethods())
                .filter(method -> method.getName().startsWith("onWebSocket")))
                .allMatch(method -> Modifier.isPublic(method.getModifiers()));
    }

    private static Set<String> listenerMethodsDeclaredBy(Class<?> type) {
        Set<String> listenerMethods = Arrays.stream(Session.Listener.class.getMethods())
                .map(KeepAliveListenerTest::signature).collect(Collectors.toSet());
        return Arrays.stream(type.getDeclaredMethods())
                .filter(method -> !method.isSynthetic() && !method.isBridge())
                .map(KeepAliveListenerTest::signature)
                .filter(listenerMethods::contains)
                .collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    private static String signature(Method method) {
        return method.getName() + Arrays.stream(method.getParameterTypes())
                .map(Class::getSimpleName).collect(Collectors.joining(",", "(", ")"));
    }
}
