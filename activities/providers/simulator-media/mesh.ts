import { Document, NodeIO, type Node } from '@gltf-transform/core';
import sharp from 'sharp';
import type { ProducedFile } from '../types';
import { hslHex, randomInt, seededRandom } from './seed';
import { blobGeometry, type Geometry } from './sphere';

export interface MeshRequest {
  seed: string;
  complexity: 'low' | 'medium' | 'high';
  textureSize: 1024 | 2048 | 4096;
  rigged: boolean;
}

/** Longitude segments and latitude rings of the sphere per complexity (561, 4,753, 33,153 vertices). */
const RESOLUTION = { low: [32, 16], medium: [96, 48], high: [256, 128] } as const;

/** Joints from the bottom up, as heights on the blob's vertical axis (which runs from -1 to 1). */
const JOINTS = [
  { name: 'hips', y: -0.6 },
  { name: 'spine', y: 0 },
  { name: 'chest', y: 0.45 },
  { name: 'head', y: 0.85 },
];

/**
 * A glTF 2.0 binary: a seeded lumpy sphere with normals and UVs, a PBR material whose base-colour
 * texture is a `textureSize`-square PNG of two-coloured bands, and when `rigged` a four-joint
 * spine skin (JOINTS_0, WEIGHTS_0, inverse bind matrices).
 */
export async function renderMesh({ seed, complexity, textureSize, rigged }: MeshRequest): Promise<ProducedFile> {
  const random = seededRandom(seed, 'mesh');
  const [segments, rings] = RESOLUTION[complexity];
  const geometry = blobGeometry(random, segments, rings);
  const doc = new Document();
  doc.getRoot().getAsset().generator = 'simulator';
  const buffer = doc.createBuffer();
  const accessor = (type: 'SCALAR' | 'VEC2' | 'VEC3' | 'VEC4' | 'MAT4', array: Float32Array | Uint16Array | Uint32Array) =>
    doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);

  const hue = random() * 360;
  const texture = doc
    .createTexture('base-color')
    .setImage(await bandsTexture(textureSize, hslHex(hue, 0.6, 0.55), hslHex((hue + 150) % 360, 0.5, 0.35), randomInt(random, 2, 8)))
    .setMimeType('image/png');
  const material = doc
    .createMaterial('surface')
    .setBaseColorTexture(texture)
    .setMetallicFactor(0)
    .setRoughnessFactor(0.4 + random() * 0.5);
  const primitive = doc
    .createPrimitive()
    .setAttribute('POSITION', accessor('VEC3', geometry.positions))
    .setAttribute('NORMAL', accessor('VEC3', geometry.normals))
    .setAttribute('TEXCOORD_0', accessor('VEC2', geometry.uvs))
    .setIndices(accessor('SCALAR', geometry.indices))
    .setMaterial(material);
  const meshNode = doc.createNode('blob').setMesh(doc.createMesh('blob').addPrimitive(primitive));
  const scene = doc.createScene('scene').addChild(meshNode);
  doc.getRoot().setDefaultScene(scene);

  if (rigged) {
    const { joints, inverseBindMatrices } = skeleton(doc, geometry.height);
    const [jointIndices, weights] = skinWeights(geometry, joints.length);
    primitive.setAttribute('JOINTS_0', accessor('VEC4', jointIndices)).setAttribute('WEIGHTS_0', accessor('VEC4', weights));
    const skin = doc.createSkin('spine').setSkeleton(joints[0]!).setInverseBindMatrices(accessor('MAT4', inverseBindMatrices));
    for (const joint of joints) skin.addJoint(joint);
    meshNode.setSkin(skin);
    scene.addChild(joints[0]!);
  }
  const data = Buffer.from(await new NodeIO().writeBinary(doc));
  return { data, mime: 'model/gltf-binary', extension: 'glb' };
}

/** A chain of joint nodes up the vertical axis and their inverse bind matrices (column-major). */
function skeleton(doc: Document, height: number): { joints: Node[]; inverseBindMatrices: Float32Array } {
  const inverseBindMatrices = new Float32Array(16 * JOINTS.length);
  const joints = JOINTS.map(({ name, y }, i) => {
    const parentY = i === 0 ? 0 : JOINTS[i - 1]!.y;
    inverseBindMatrices.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -y * height, 0, 1], i * 16);
    return doc.createNode(name).setTranslation([0, (y - parentY) * height, 0]);
  });
  joints.forEach((joint, i) => joints[i + 1] && joint.addChild(joints[i + 1]!));
  return { joints, inverseBindMatrices };
}

/** Each vertex follows the two joints around its height, blended linearly between them. */
function skinWeights(geometry: Geometry, jointCount: number): [Uint16Array, Float32Array] {
  const count = geometry.positions.length / 3;
  const jointIndices = new Uint16Array(count * 4);
  const weights = new Float32Array(count * 4);
  for (let v = 0; v < count; v++) {
    const y = geometry.positions[v * 3 + 1]! / geometry.height;
    const upper = JOINTS.findIndex((joint) => joint.y >= y);
    if (upper <= 0) {
      jointIndices[v * 4] = upper === 0 ? 0 : jointCount - 1;
      weights[v * 4] = 1;
      continue;
    }
    const [below, above] = [JOINTS[upper - 1]!.y, JOINTS[upper]!.y];
    const s = (y - below) / (above - below);
    jointIndices.set([upper - 1, upper], v * 4);
    weights.set([1 - s, s], v * 4);
  }
  return [jointIndices, weights];
}

/** Horizontal bands of two colours: an image of a few rows scaled up, so it encodes quickly. */
async function bandsTexture(size: number, first: string, second: string, bands: number): Promise<Buffer> {
  const rows = Buffer.alloc(bands * 2 * 3);
  for (let row = 0; row < bands * 2; row++) rows.write((row % 2 ? second : first).slice(1), row * 3, 'hex');
  return sharp(rows, { raw: { width: 1, height: bands * 2, channels: 3 } })
    .resize(size, size, { kernel: 'nearest', fit: 'fill' })
    .png({ compressionLevel: 6, adaptiveFiltering: false })
    .toBuffer();
}
