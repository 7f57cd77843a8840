import { multiply, orbit, perspective } from './mat4';
import type { PreviewPrimitive } from './glb';

// Draws parsed primitives with WebGL: one light from the camera's upper left and some ambient, the
// base colour texture where there is one. The model is centred and scaled to fit; `draw` takes the
// camera's turn and zoom, and draws one frame (the viewer draws on demand, never in a loop).

const VERTEX = `
attribute vec3 position;
attribute vec3 normal;
attribute vec2 uv;
uniform mat4 viewProjection;
uniform mat4 view;
varying vec3 vNormal;
varying vec2 vUv;
void main() {
  vNormal = mat3(view) * normal;
  vUv = uv;
  gl_Position = viewProjection * vec4(position, 1.0);
}`;

const FRAGMENT = `
precision mediump float;
uniform vec4 baseColor;
uniform sampler2D baseTexture;
uniform bool textured;
varying vec3 vNormal;
varying vec2 vUv;
void main() {
  vec4 colour = textured ? baseColor * texture2D(baseTexture, vUv) : baseColor;
  float light = 0.35 + 0.65 * max(dot(normalize(vNormal), normalize(vec3(-0.4, 0.6, 0.7))), 0.0);
  gl_FragColor = vec4(colour.rgb * light, 1.0);
}`;

export interface Camera {
  yaw: number;
  pitch: number;
  /** 1 is the model filling the view; larger is farther. */
  zoom: number;
}

export interface ModelRenderer {
  draw(camera: Camera): void;
  dispose(): void;
}

interface DrawItem {
  buffers: WebGLBuffer[];
  indexBuffer: WebGLBuffer;
  count: number;
  baseColor: [number, number, number, number];
  texture: WebGLTexture | undefined;
}

function compile(gl: WebGLRenderingContext, type: number, source: string): WebGLShader {
  const shader = gl.createShader(type)!;
  gl.shaderSource(shader, source);
  gl.compileShader(shader);
  if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) throw new Error(`WebGL shader: ${gl.getShaderInfoLog(shader)}`);
  return shader;
}

/** Sets up `canvas` to draw `primitives`; textures load in the background and redraw when ready. */
export function createModelRenderer(canvas: HTMLCanvasElement, primitives: PreviewPrimitive[], background: [number, number, number]): ModelRenderer {
  const gl = canvas.getContext('webgl', { antialias: true, preserveDrawingBuffer: true });
  if (!gl) throw new Error('This browser cannot draw WebGL.');
  if (!gl.getExtension('OES_element_index_uint')) throw new Error('This browser cannot draw large meshes (no OES_element_index_uint).');
  const program = gl.createProgram()!;
  gl.attachShader(program, compile(gl, gl.VERTEX_SHADER, VERTEX));
  gl.attachShader(program, compile(gl, gl.FRAGMENT_SHADER, FRAGMENT));
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(`WebGL program: ${gl.getProgramInfoLog(program)}`);
  gl.useProgram(program);

  // Centre and scale: the bounding sphere of every vertex.
  let [minX, minY, minZ, maxX, maxY, maxZ] = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  for (const { positions } of primitives) {
    for (let i = 0; i < positions.length; i += 3) {
      minX = Math.min(minX, positions[i]!);
      maxX = Math.max(maxX, positions[i]!);
      minY = Math.min(minY, positions[i + 1]!);
      maxY = Math.max(maxY, positions[i + 1]!);
      minZ = Math.min(minZ, positions[i + 2]!);
      maxZ = Math.max(maxZ, positions[i + 2]!);
    }
  }
  const centre = [(minX + maxX) / 2, (minY + maxY) / 2, (minZ + maxZ) / 2] as const;
  const radius = Math.max(Math.hypot(maxX - minX, maxY - minY, maxZ - minZ) / 2, 1e-6);

  const buffer = (data: Float32Array) => {
    const b = gl.createBuffer()!;
    gl.bindBuffer(gl.ARRAY_BUFFER, b);
    gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
    return b;
  };
  const items: DrawItem[] = [];
  let redraw: () => void = () => {};
  for (const primitive of primitives) {
    const centred = new Float32Array(primitive.positions.length);
    for (let i = 0; i < centred.length; i += 3) {
      for (let k = 0; k < 3; k++) centred[i + k] = (primitive.positions[i + k]! - centre[k]!) / radius;
    }
    const indexBuffer = gl.createBuffer()!;
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, indexBuffer);
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, primitive.indices, gl.STATIC_DRAW);
    const item: DrawItem = {
      buffers: [buffer(centred), buffer(primitive.normals), buffer(primitive.uvs ?? new Float32Array((centred.length / 3) * 2))],
      indexBuffer,
      count: primitive.indices.length,
      baseColor: primitive.baseColor,
      texture: undefined,
    };
    items.push(item);
    if (primitive.texture) {
      // A texture that fails to decode leaves the plain base colour.
      void createImageBitmap(primitive.texture).then(
        (image) => {
          const texture = gl.createTexture()!;
          gl.bindTexture(gl.TEXTURE_2D, texture);
          gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, image);
          gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
          gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
          gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
          item.texture = texture;
          redraw();
        },
        () => {},
      );
    }
  }

  const attribute = (name: string) => gl.getAttribLocation(program, name);
  const uniform = (name: string) => gl.getUniformLocation(program, name);
  const [positionAt, normalAt, uvAt] = [attribute('position'), attribute('normal'), attribute('uv')];
  gl.enable(gl.DEPTH_TEST);

  const draw = (camera: Camera) => {
    redraw = () => draw(camera);
    const { width, height } = canvas;
    gl.viewport(0, 0, width, height);
    gl.clearColor(background[0], background[1], background[2], 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    const distance = 2.6 * camera.zoom;
    const view = orbit(camera.yaw, camera.pitch, distance);
    gl.uniformMatrix4fv(uniform('viewProjection'), false, multiply(perspective(Math.PI / 4, width / height, distance / 100, distance + 4), view));
    gl.uniformMatrix4fv(uniform('view'), false, view);
    for (const item of items) {
      [positionAt, normalAt, uvAt].forEach((at, i) => {
        gl.bindBuffer(gl.ARRAY_BUFFER, item.buffers[i]!);
        gl.enableVertexAttribArray(at);
        gl.vertexAttribPointer(at, i === 2 ? 2 : 3, gl.FLOAT, false, 0, 0);
      });
      gl.uniform4fv(uniform('baseColor'), item.baseColor);
      gl.uniform1i(uniform('textured'), item.texture ? 1 : 0);
      if (item.texture) {
        gl.activeTexture(gl.TEXTURE0);
        gl.bindTexture(gl.TEXTURE_2D, item.texture);
        gl.uniform1i(uniform('baseTexture'), 0);
      }
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, item.indexBuffer);
      gl.drawElements(gl.TRIANGLES, item.count, gl.UNSIGNED_INT, 0);
    }
  };

  return {
    draw,
    dispose: () => gl.getExtension('WEBGL_lose_context')?.loseContext(),
  };
}
