package dev.engram.rest;

import dev.engram.problems.Problem;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.json.Json;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.ext.web.Router;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.charset.StandardCharsets;

/**
 * Answers what Vert.x's HTTP/1 decoder refuses as a problem: a request line over
 * {@code quarkus.http.limits.max-initial-line-length} (414 {@code uri-too-long}), headers over
 * {@code max-header-size} (431 {@code headers-too-large}), anything else the decoder fails (NUL or DEL in a
 * header, a duplicate or negative {@code Content-Length}, {@code Content-Length} with {@code Transfer-Encoding}:
 * 400 {@code request-malformed}), with {@code Connection: close}, then closes the connection. Left to Vert.x, such
 * a request goes to its default invalid-request handler (Quarkus sets none), which answers the status with no body.
 *
 * <p>As {@link HeadDeadlines} does, the first request served on a listening socket adds an {@link Acceptor} to the
 * socket itself; from then on each connection it accepts gets a {@link Watcher} that places a {@link Refuser} right
 * after the decoder once Vert.x has added it (at initialisation, or when it has told HTTP/1 from an HTTP/2 preface
 * on the first bytes), so connections accepted before that first request are answered by Vert.x as before. Where
 * no HTTP/1 decoder appears (HTTP/2) nothing is placed; over TLS the refuser is placed at the first read after the
 * handshake has added the decoder, so a head that arrives in the same read as the handshake's end is Vert.x's.
 */
@ApplicationScoped
public class DecodeRefusals {

    private static final AttributeKey<Boolean> WATCHED = AttributeKey.valueOf("engram.decode-refusals.watched");
    static final String NAME = "engramDecodeRefusals";
    private static final String DECODER = "httpDecoder";
    private static final String ENCODER = "httpEncoder";
    private static final int DETAIL_CHARS = 200;

    void install(@Observes @Priority(1) Router router) {
        router.route().order(Integer.MIN_VALUE).handler(ctx -> {
            HttpConnection connection = ctx.request().connection();
            if (connection instanceof ConnectionBase base) {
                Channel server = base.channel().parent();
                if (server != null && server.attr(WATCHED).get() == null
                        && server.attr(WATCHED).setIfAbsent(Boolean.TRUE) == null) {
                    server.pipeline().addFirst(new Acceptor());
                }
            }
            ctx.next();
        });
    }

    /** On the listening socket: gives each connection it accepts a {@link Watcher}, before anything else. */
    @ChannelHandler.Sharable
    static final class Acceptor extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Channel child) {
                child.pipeline().addFirst(new Watcher());
            }
            ctx.fireChannelRead(msg);
        }
    }

    /**
     * First in a connection's pipeline until Vert.x has chosen its protocol: places a {@link Refuser} after the
     * HTTP/1 codec once it is there, or leaves when Vert.x's connection handler is there without it. In cleartext,
     * where Vert.x adds the codec only once the first bytes are not an HTTP/2 preface, it passes those first bytes
     * one at a time until the choice is made (one or two bytes for any HTTP/1 method), so that no request is decoded
     * before the refuser is in place.
     */
    static final class Watcher extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ChannelPipeline pipeline = ctx.pipeline();
            if (!(msg instanceof ByteBuf bytes) || placed(pipeline) || pipeline.get("ssl") != null) {
                ctx.fireChannelRead(msg);
                return;
            }
            while (bytes.readableBytes() > 1 && !placed(pipeline)) {
                ctx.fireChannelRead(bytes.readRetainedSlice(1));
            }
            ctx.fireChannelRead(bytes);
        }

        private boolean placed(ChannelPipeline pipeline) {
            if (pipeline.context(this) == null) {
                return true;
            }
            if (pipeline.get(DECODER) != null && pipeline.get(ENCODER) != null) {
                pipeline.addAfter(ENCODER, NAME, new Refuser());
                pipeline.remove(this);
                return true;
            }
            if (pipeline.get("handler") != null) {
                pipeline.remove(this);
                return true;
            }
            return false;
        }
    }

    /**
     * Right after the HTTP/1 codec: a request the decoder failed is answered here and never reaches Vert.x, nor does
     * anything after it. One that comes while an earlier response is still being written is left to Vert.x, which
     * answers it in turn (with no body), so that answers keep the order of their requests.
     */
    static final class Refuser extends ChannelDuplexHandler {
        private boolean refused;
        private int unanswered;
        private boolean interim;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
            if (refused) {
                ReferenceCountUtil.release(msg);
            } else if (msg instanceof HttpRequest request) {
                if (request.decoderResult().isFailure() && unanswered == 0) {
                    refused = true;
                    Throwable cause = request.decoderResult().cause();
                    ReferenceCountUtil.release(msg);
                    refuse(ctx, cause);
                } else {
                    unanswered++;
                    ctx.fireChannelRead(msg);
                }
            } else {
                ctx.fireChannelRead(msg);
            }
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
            if (msg instanceof HttpResponse response) {
                interim = response.status().codeClass() == io.netty.handler.codec.http.HttpStatusClass.INFORMATIONAL
                        && response.status().code() != 101;
            }
            if (msg instanceof LastHttpContent && !interim && unanswered > 0) {
                unanswered--;
            }
            ctx.write(msg, promise);
        }

        private static void refuse(ChannelHandlerContext ctx, Throwable cause) {
            Problem p;
            String what = sanitised(cause == null ? null : cause.getMessage());
            if (cause instanceof TooLongHttpLineException) {
                p = Problem.of("uri-too-long", 414, "URI too long", "The request line is longer than the server "
                        + "takes" + what + "; send a shorter URI and put long parameters in a body.");
            } else if (cause instanceof TooLongHttpHeaderException) {
                p = Problem.of("headers-too-large", 431, "Request headers too large", "The request's headers are "
                        + "larger than the server takes" + what + "; send fewer or shorter headers.");
            } else {
                p = Problem.of("request-malformed", 400, "Malformed request", "The request head could not be "
                        + "decoded" + what + "; send a well-formed HTTP/1.1 request.");
            }
            byte[] body = Json.encode(p.body(null)).getBytes(StandardCharsets.UTF_8);
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                    HttpResponseStatus.valueOf(p.status()), Unpooled.wrappedBuffer(body));
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, Problem.MEDIA_TYPE)
                    .set(HttpHeaderNames.CONTENT_LENGTH, body.length)
                    .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }

        /** The decoder's reason, in printable ASCII and at most {@value #DETAIL_CHARS} characters: no raw bytes. */
        static String sanitised(String message) {
            if (message == null || message.isBlank()) {
                return "";
            }
            StringBuilder out = new StringBuilder(" (");
            for (int i = 0; i < message.length() && out.length() < DETAIL_CHARS + 2; i++) {
                char c = message.charAt(i);
                out.append(c >= 0x20 && c < 0x7f ? c : '?');
            }
            return out.append(')').toString();
        }
    }
}
