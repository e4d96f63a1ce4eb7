"use client";
import { Component, type ReactNode } from "react";

type Props = { children: ReactNode; fallback: ReactNode; resetKey?: unknown };

/**
 * One message's error boundary: a payload no renderer expected shows its fallback (the readable
 * view of its fields) instead of taking the whole conversation down. A new `resetKey` (the message
 * changed) gives the renderer another try.
 */
export class MessageBoundary extends Component<Props, { failed: boolean; key: unknown }> {
  state = { failed: false, key: this.props.resetKey };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: { failed: boolean; key: unknown }) {
    return props.resetKey === state.key ? null : { failed: false, key: props.resetKey };
  }

  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
