import type { AbstractNode, IconDefinition } from '@ant-design/icons-svg/es/types';

/**
 * An Ant Design icon drawn from its SVG definition, without @ant-design/icons' runtime (its context and colour
 * helpers come with antd): the open pages (login, register frame) use a handful of them.
 */
export function Icon({ def, spin, className }: { def: IconDefinition; spin?: boolean; className?: string }) {
  const node = def.icon as AbstractNode;
  return (
    <span role="img" aria-label={def.name} className={['lx-icon', spin ? 'lx-icon-spin' : '', className ?? ''].filter(Boolean).join(' ')}>
      <svg viewBox={node.attrs.viewBox} focusable="false" width="1em" height="1em" fill="currentColor" aria-hidden="true">
        {node.children?.map((c, i) => <path key={i} d={c.attrs.d} fillRule={c.attrs['fill-rule'] as 'evenodd' | undefined} />)}
      </svg>
    </span>
  );
}
