import { describe, expect, it } from 'vitest';
import { Perm, allPermissionCodes, permissionTree, type PermissionNode } from '@lynx/contract';
import { ancestorCodes, branchCodes, countKnown, filterTree, grantedTree, partialCodes, subtreeCodes, toggleCode } from './permissionCodes.ts';

const tree: PermissionNode[] = [
  {
    code: 1, zh: '甲', en: 'A', kind: 'page', children: [
      { code: 11, zh: '甲一', en: 'A1', kind: 'page', children: [{ code: 111, zh: '按钮', en: 'Btn', kind: 'button' }, { code: 112, zh: '按钮2', en: 'Btn2', kind: 'button' }] },
      { code: 12, zh: '甲二', en: 'A2', kind: 'page', children: [] },
    ],
  },
  { code: 2, zh: '乙', en: 'B', kind: 'page' },
];

describe('toggleCode', () => {
  it.each([
    ['checking a button adds its pages', [], 111, true, [1, 11, 111]],
    ['checking a page adds everything below and above', [], 11, true, [1, 11, 111, 112]],
    ['checking a top page adds its whole subtree', [2], 1, true, [1, 2, 11, 12, 111, 112]],
    ['unchecking a page removes what is below, keeps what is above', [1, 11, 111, 112, 12], 11, false, [1, 12]],
    ['unchecking a button keeps its page', [1, 11, 111, 112], 112, false, [1, 11, 111]],
    ['unchecking a top page clears its subtree only', [1, 11, 111, 2], 1, false, [2]],
    ['an unknown code changes nothing', [2], 999, true, [2]],
  ])('%s', (_name, selected, code, on, expected) => {
    expect(toggleCode(selected, code, on, tree)).toEqual(expected);
  });

  it('works on the real tree: a role button brings the System page and the role page', () => {
    expect(toggleCode([], Perm.SystemRoleDelete, true)).toEqual([Perm.System, Perm.SystemRole, Perm.SystemRoleDelete]);
  });
});

describe('tree helpers', () => {
  it('ancestorCodes lists the nearest first', () => {
    expect(ancestorCodes(111, tree)).toEqual([11, 1]);
    expect(ancestorCodes(2, tree)).toEqual([]);
  });

  it('subtreeCodes includes the node itself', () => {
    expect(subtreeCodes(tree[0])).toEqual([1, 11, 111, 112, 12]);
  });

  it('partialCodes marks unchecked ancestors of checked nodes only', () => {
    expect(partialCodes([111], tree).sort()).toEqual([1, 11]);
    expect(partialCodes([1, 11, 111], tree)).toEqual([]);
    expect(partialCodes([], tree)).toEqual([]);
  });

  it('grantedTree keeps granted nodes and the path to them', () => {
    const cut = grantedTree([111, 2], tree);
    expect(cut.map((n) => n.code)).toEqual([1, 2]);
    expect(cut[0].children?.map((n) => n.code)).toEqual([11]);
    expect(cut[0].children?.[0].children?.map((n) => n.code)).toEqual([111]);
    expect(grantedTree([], tree)).toEqual([]);
  });

  it('branchCodes lists nodes with children', () => {
    expect(branchCodes(tree)).toEqual([1, 11]);
    expect(branchCodes()).toContain(Perm.SystemRole);
  });

  it('countKnown ignores duplicates and codes outside the tree', () => {
    expect(countKnown([1, 1, 111, 999], tree)).toBe(2);
    expect(countKnown(allPermissionCodes)).toBe(allPermissionCodes.length);
    expect(grantedTree(allPermissionCodes).length).toBe(permissionTree.length);
  });
});

describe('filterTree', () => {
  const codes = (nodes: PermissionNode[]): number[] => nodes.flatMap((n) => [n.code, ...codes(n.children ?? [])]);
  it.each([
    ['blank keeps everything', '  ', [1, 11, 111, 112, 12, 2]],
    ['a button brings its pages', 'btn2', [1, 11, 112]],
    ['Chinese names match', '按钮', [1, 11, 111, 112]],
    ['a matching page keeps its children', 'a1', [1, 11, 111, 112]],
    ['codes match', '12', [1, 11, 112, 12]],
    ['case is ignored', 'B', [1, 11, 111, 112, 2]],
    ['no match gives an empty tree', 'zzz', []],
  ])('%s', (_name, keyword, expected) => {
    expect(codes(filterTree(keyword, tree))).toEqual(expected);
  });
});

describe('roleNameOf', () => {
  it('uses the English name of built-in roles in English, the one name otherwise', async () => {
    const { roleNameOf } = await import('./permissionCodes.ts');
    expect(roleNameOf({ roleName: '企业客户', roleNameEn: 'Enterprise customer' }, 'en')).toBe('Enterprise customer');
    expect(roleNameOf({ roleName: '企业客户', roleNameEn: 'Enterprise customer' }, 'zh')).toBe('企业客户');
    expect(roleNameOf({ roleName: '审计员', roleNameEn: null }, 'en')).toBe('审计员');
  });
});
