package org.partita.integration;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import org.partita.client.proto.ClientMessage;
import org.partita.client.proto.Invocation;
import org.partita.client.proto.InvocationResponse;
import org.partita.client.proto.LoginRequest;
import org.partita.client.proto.LoginResponse;
import org.partita.client.proto.Parameter;
import org.partita.client.proto.ServerMessage;

/**
 * A socket speaking raw protocol frames, for sending what a well-behaved
 * client never would. Blocking; 10 s read timeout.
 */
final class RawConnection implements AutoCloseable {
  private final Socket socket = new Socket();
  private final DataOutputStream out;
  private final DataInputStream in;

  RawConnection(int port) throws IOException {
    this("127.0.0.1", port);
  }

  /** A connection to {@code host:port} (a cluster host's own address). */
  RawConnection(String host, int port) throws IOException {
    socket.connect(new InetSocketAddress(host, port), 5000);
    socket.setSoTimeout(10_000);
    out = new DataOutputStream(socket.getOutputStream());
    in = new DataInputStream(socket.getInputStream());
  }

  LoginResponse login(int protocolVersion) throws IOException {
    frame(ClientMessage.newBuilder().setLogin(LoginRequest.newBuilder().setProtocolVersion(protocolVersion)
        .setClientName("raw")).build().toByteArray());
    return read().getLogin();
  }

  /** Logs in with {@code request} as it is (a client session, say). */
  LoginResponse login(LoginRequest request) throws IOException {
    frame(ClientMessage.newBuilder().setLogin(request).build().toByteArray());
    return read().getLogin();
  }

  /**
   * A connection to {@code host:port} logged in to client session
   * {@code session} (docs/wire-protocol.md, "Client sessions"), as a client
   * sending its calls again after a lost connection does.
   *
   * @throws IOException when the login is not accepted
   */
  static RawConnection session(String host, int port, String clientName, long session) throws IOException {
    final RawConnection c = new RawConnection(host, port);
    final LoginResponse login = c.login(LoginRequest.newBuilder().setProtocolVersion(1).setClientName(clientName)
        .setClientSession(session).build());
    if (login.getStatus() != org.partita.client.proto.LoginStatus.LOGIN_STATUS_OK) {
      c.close();
      throw new IOException("login to session " + session + " refused: " + login);
    }
    return c;
  }

  /** Sends one invocation; parameters are Long, String, BigDecimal (as DECIMAL text) or null. */
  void invoke(long handle, String procedure, Object... parameters) throws IOException {
    final Invocation.Builder call = Invocation.newBuilder().setClientHandle(handle).setProcedure(procedure);
    for (Object p : parameters) {
      final Parameter.Builder value = Parameter.newBuilder();
      if (p instanceof Long l) {
        value.setInteger(l);
      } else if (p instanceof String s) {
        value.setText(s);
      } else if (p instanceof java.math.BigDecimal d) {
        value.setDecimal(d.toString());
      }
      call.addParameters(value);
    }
    frame(ClientMessage.newBuilder().setInvocation(call).build().toByteArray());
  }

  InvocationResponse call(long handle, String procedure, Object... parameters) throws IOException {
    invoke(handle, procedure, parameters);
    return read().getResponse();
  }

  /** Changes the read timeout (10 s by default). */
  void setReadTimeoutMillis(int millis) throws IOException {
    socket.setSoTimeout(millis);
  }

  void frame(byte[] body) throws IOException {
    out.writeInt(body.length);
    out.write(body);
    out.flush();
  }

  void raw(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  ServerMessage read() throws IOException {
    final byte[] body = new byte[in.readInt()];
    in.readFully(body);
    return ServerMessage.parseFrom(body);
  }

  /** True iff the server closes the connection within the read timeout. */
  boolean closedByServer() throws IOException {
    try {
      while (in.read() >= 0) {
        continue;
      }
      return true;
    } catch (SocketException e) {
      return true;
    } catch (SocketTimeoutException e) {
      return false;
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
