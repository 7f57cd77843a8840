import { fromTrs, identity, multiply, transformDirection, transformPoint, type Mat4 } from './mat4';

// Reads a glTF 2.0 binary (.glb) into what the preview draws: each triangle primitive's positions
// and normals in world space (node transforms applied), its UVs and indices, and its base colour
// (factor and embedded texture image). What a plain preview cannot draw (Draco or meshopt
// compression, quantized attributes, points and lines) is reported, and the page offers the download.

export interface PreviewPrimitive {
  positions: Float32Array;
  normals: Float32Array;
  uvs: Float32Array | undefined;
  indices: Uint32Array;
  baseColor: [number, number, number, number];
  texture: Blob | undefined;
}

interface Accessor {
  bufferView?: number;
  byteOffset?: number;
  componentType: number;
  count: number;
  type: string;
  normalized?: boolean;
}
interface BufferView {
  byteOffset?: number;
  byteLength: number;
  byteStride?: number;
}
interface Gltf {
  scene?: number;
  scenes?: { nodes?: number[] }[];
  nodes?: { mesh?: number; children?: number[]; matrix?: number[]; translation?: number[]; rotation?: number[]; scale?: number[] }[];
  meshes?: { primitives: { attributes: Record<string, number>; indices?: number; material?: number; mode?: number }[] }[];
  accessors?: Accessor[];
  bufferViews?: BufferView[];
  materials?: { pbrMetallicRoughness?: { baseColorFactor?: number[]; baseColorTexture?: { index: number } } }[];
  textures?: { source?: number }[];
  images?: { bufferView?: number; mimeType?: string }[];
  extensionsRequired?: string[];
}

const TRIANGLES = 4;
const COMPONENTS: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4 };
const READERS: Record<number, { size: number; read: (view: DataView, offset: number) => number }> = {
  5121: { size: 1, read: (v, o) => v.getUint8(o) },
  5123: { size: 2, read: (v, o) => v.getUint16(o, true) },
  5125: { size: 4, read: (v, o) => v.getUint32(o, true) },
  5126: { size: 4, read: (v, o) => v.getFloat32(o, true) },
};

export class UnsupportedModelError extends Error {}

/** Parses a .glb file; throws UnsupportedModelError for what the preview cannot draw. */
export function parseGlb(file: ArrayBuffer): PreviewPrimitive[] {
  const header = new DataView(file);
  if (file.byteLength < 20 || header.getUint32(0, true) !== 0x46546c67) throw new UnsupportedModelError('This file is not a glTF binary (.glb).');
  const jsonLength = header.getUint32(12, true);
  const gltf = JSON.parse(new TextDecoder().decode(new Uint8Array(file, 20, jsonLength))) as Gltf;
  const binStart = 20 + jsonLength + 8;
  const bin = binStart <= file.byteLength ? new DataView(file, binStart, header.getUint32(20 + jsonLength, true)) : new DataView(new ArrayBuffer(0));
  const unsupported = (gltf.extensionsRequired ?? []).filter((name) => name !== 'KHR_materials_unlit');
  if (unsupported.length) throw new UnsupportedModelError(`The preview cannot draw ${unsupported.join(', ')}; download the file to open it.`);

  const read = (index: number): number[] => {
    const accessor = gltf.accessors?.[index];
    const reader = accessor && READERS[accessor.componentType];
    const components = accessor && COMPONENTS[accessor.type];
    if (!accessor || !reader || !components || accessor.bufferView === undefined) throw new UnsupportedModelError('The file has an attribute the preview cannot read.');
    const view = gltf.bufferViews![accessor.bufferView]!;
    const stride = view.byteStride ?? reader.size * components;
    const start = (view.byteOffset ?? 0) + (accessor.byteOffset ?? 0);
    const out = new Array<number>(accessor.count * components);
    for (let i = 0; i < accessor.count; i++) {
      for (let c = 0; c < components; c++) out[i * components + c] = reader.read(bin, start + i * stride + c * reader.size);
    }
    return out;
  };

  const imageOf = (textureIndex: number | undefined): Blob | undefined => {
    const image = textureIndex === undefined ? undefined : gltf.images?.[gltf.textures?.[textureIndex]?.source ?? -1];
    if (!image || image.bufferView === undefined) return undefined;
    const view = gltf.bufferViews![image.bufferView]!;
    return new Blob([new Uint8Array(bin.buffer, bin.byteOffset + (view.byteOffset ?? 0), view.byteLength)], { type: image.mimeType ?? 'image/png' });
  };

  const primitives: PreviewPrimitive[] = [];
  const visit = (nodeIndex: number, parent: Mat4) => {
    const node = gltf.nodes?.[nodeIndex];
    if (!node) return;
    const local = node.matrix ? new Float32Array(node.matrix) : fromTrs(node.translation, node.rotation, node.scale);
    const world = multiply(parent, local);
    for (const primitive of node.mesh === undefined ? [] : (gltf.meshes?.[node.mesh]?.primitives ?? [])) {
      if ((primitive.mode ?? TRIANGLES) !== TRIANGLES || primitive.attributes.POSITION === undefined) continue;
      const local = read(primitive.attributes.POSITION);
      const count = local.length / 3;
      const positions = new Float32Array(local.length);
      for (let i = 0; i < count; i++) positions.set(transformPoint(world, local[i * 3]!, local[i * 3 + 1]!, local[i * 3 + 2]!), i * 3);
      const indices = new Uint32Array(primitive.indices === undefined ? Array.from({ length: count }, (_, i) => i) : read(primitive.indices));
      const normals = new Float32Array(local.length);
      if (primitive.attributes.NORMAL !== undefined) {
        const n = read(primitive.attributes.NORMAL);
        for (let i = 0; i < count; i++) normals.set(transformDirection(world, n[i * 3]!, n[i * 3 + 1]!, n[i * 3 + 2]!), i * 3);
      } else {
        smoothNormals(positions, indices, normals);
      }
      const uv = primitive.attributes.TEXCOORD_0 === undefined ? undefined : new Float32Array(read(primitive.attributes.TEXCOORD_0));
      const pbr = primitive.material === undefined ? undefined : gltf.materials?.[primitive.material]?.pbrMetallicRoughness;
      const factor = pbr?.baseColorFactor ?? [0.8, 0.8, 0.8, 1];
      primitives.push({
        positions,
        normals,
        uvs: uv,
        indices,
        baseColor: [factor[0] ?? 1, factor[1] ?? 1, factor[2] ?? 1, factor[3] ?? 1],
        texture: uv ? imageOf(pbr?.baseColorTexture?.index) : undefined,
      });
    }
    for (const child of node.children ?? []) visit(child, world);
  };
  const roots = gltf.scenes?.[gltf.scene ?? 0]?.nodes ?? (gltf.nodes ?? []).map((_, i) => i);
  for (const root of roots) visit(root, identity());
  if (primitives.length === 0) throw new UnsupportedModelError('The file has no triangles to preview.');
  return primitives;
}

/** Vertex normals from the faces around each vertex, for files that carry none. */
function smoothNormals(positions: Float32Array, indices: Uint32Array, out: Float32Array): void {
  const p = (i: number): [number, number, number] => [positions[i * 3]!, positions[i * 3 + 1]!, positions[i * 3 + 2]!];
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const [a, b, c] = [indices[t]!, indices[t + 1]!, indices[t + 2]!];
    const [pa, pb, pc] = [p(a), p(b), p(c)];
    const u = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]];
    const v = [pc[0] - pa[0], pc[1] - pa[1], pc[2] - pa[2]];
    const n = [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
    for (const vertex of [a, b, c]) for (let k = 0; k < 3; k++) out[vertex * 3 + k] = out[vertex * 3 + k]! + n[k]!;
  }
  for (let i = 0; i < out.length; i += 3) {
    const length = Math.hypot(out[i]!, out[i + 1]!, out[i + 2]!) || 1;
    out[i] = out[i]! / length;
    out[i + 1] = out[i + 1]! / length;
    out[i + 2] = out[i + 2]! / length;
  }
}
