"""ask.py TOPIC_ASK TOPIC_ANSWER QUESTION — publish a question to the
bridge as a ROS node would and print the answer (JSON) it publishes back.
Used by tests/ros/bridge.sh; exits 1 after 60 s without an answer."""
import json
import sys

import rospy
from std_msgs.msg import String

ask_topic, answer_topic, question = sys.argv[1:4]
rospy.init_node("h2emv_test_asker", anonymous=True)
got = []
rospy.Subscriber(answer_topic, String, lambda m: got.append(m.data))
pub = rospy.Publisher(ask_topic, String, queue_size=1)
deadline = rospy.Time.now() + rospy.Duration(60)
while pub.get_num_connections() == 0 and rospy.Time.now() < deadline:
    rospy.sleep(0.05)
pub.publish(String(data=json.dumps({"question": question, "id": "q1"})))
while not got and rospy.Time.now() < deadline:
    rospy.sleep(0.05)
if not got:
    sys.exit("no answer on %s" % answer_topic)
print(got[0])
