import { randomInt } from './seed';

export interface Geometry {
  positions: Float32Array;
  normals: Float32Array;
  uvs: Float32Array;
  indices: Uint16Array | Uint32Array;
  /** Half the height along Y: the poles sit at ±height. */
  height: number;
}

/**
 * A UV sphere stretched along Y and pushed in and out by a seeded wave, with smooth normals.
 * Rows run from the top pole (v = 0) to the bottom one; the seam column is duplicated for UVs.
 */
export function blobGeometry(random: () => number, segments: number, rings: number): Geometry {
  const height = 1.2 + random() * 0.6;
  const amplitude = 0.05 + random() * 0.1;
  const [lobes, waves] = [randomInt(random, 2, 6), randomInt(random, 1, 4)];
  const [phaseA, phaseB] = [random() * 2 * Math.PI, random() * 2 * Math.PI];
  const columns = segments + 1;
  const count = columns * (rings + 1);
  const positions = new Float32Array(count * 3);
  const uvs = new Float32Array(count * 2);
  for (let j = 0; j <= rings; j++) {
    const phi = (Math.PI * j) / rings;
    for (let i = 0; i <= segments; i++) {
      const theta = (2 * Math.PI * i) / segments;
      const r = 1 + amplitude * Math.sin(phi) * Math.sin(lobes * theta + phaseA) * Math.cos(waves * phi + phaseB);
      const v = j * columns + i;
      positions.set([r * Math.sin(phi) * Math.cos(theta), r * Math.cos(phi) * height, -r * Math.sin(phi) * Math.sin(theta)], v * 3);
      uvs.set([i / segments, j / rings], v * 2);
    }
  }
  const triangles: number[] = [];
  for (let j = 0; j < rings; j++) {
    for (let i = 0; i < segments; i++) {
      const a = j * columns + i;
      const b = a + columns;
      // Skip the triangles that collapse onto a pole.
      if (j > 0) triangles.push(a, b, a + 1);
      if (j < rings - 1) triangles.push(a + 1, b, b + 1);
    }
  }
  const indices = count > 0xffff ? Uint32Array.from(triangles) : Uint16Array.from(triangles);
  return { positions, normals: smoothNormals(positions, indices, segments, rings), uvs, indices, height };
}

/** Area-weighted face normals summed per vertex, joined across the seam, exact at the poles. */
function smoothNormals(positions: Float32Array, indices: Uint16Array | Uint32Array, segments: number, rings: number): Float32Array {
  const normals = new Float32Array(positions.length);
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [indices[t]! * 3, indices[t + 1]! * 3, indices[t + 2]! * 3];
    const [ux, uy, uz] = [positions[b]! - positions[a]!, positions[b + 1]! - positions[a + 1]!, positions[b + 2]! - positions[a + 2]!];
    const [vx, vy, vz] = [positions[c]! - positions[a]!, positions[c + 1]! - positions[a + 1]!, positions[c + 2]! - positions[a + 2]!];
    const normal = [uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx];
    for (const vertex of [a, b, c]) for (let k = 0; k < 3; k++) normals[vertex + k]! += normal[k]!;
  }
  const columns = segments + 1;
  for (let j = 0; j <= rings; j++) {
    const [first, last] = [j * columns * 3, (j * columns + segments) * 3];
    for (let k = 0; k < 3; k++) normals[first + k] = normals[last + k] = normals[first + k]! + normals[last + k]!;
  }
  for (let v = 0; v < normals.length; v += 3) {
    const pole = v < columns * 3 ? 1 : v >= rings * columns * 3 ? -1 : 0;
    if (pole) normals.set([0, pole, 0], v);
    else {
      const length = Math.hypot(normals[v]!, normals[v + 1]!, normals[v + 2]!) || 1;
      for (let k = 0; k < 3; k++) normals[v + k]! /= length;
    }
  }
  return normals;
}
